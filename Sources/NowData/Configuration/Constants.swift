/// Values shared by the NowData API.
public enum Constants {
    /// The path under which the Table API nests every response: `result`.
    public static let resultPath = "result"
}
