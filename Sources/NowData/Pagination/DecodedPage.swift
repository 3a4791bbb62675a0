/// A page as its decoding made it, on its way from the task that decoded it (a page fetched ahead is decoded beside
/// the caller) to the one caller that asks for it. Nothing else keeps it, so the model need not be `Sendable`.
struct DecodedPage<Model>: @unchecked Sendable {
    let model: Model

    init(_ model: Model) {
        self.model = model
    }
}
