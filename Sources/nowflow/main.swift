print("nowflow")
