/// `import`: rows loaded into an import set table (`table:`, the staging table) through the Import Set API, which
/// transforms each into its target table: the rows of a CSV file (`file:`) or of a list (`rows:`).
struct ImportStep: Sendable, Hashable {
    /// Where the rows come from.
    enum Source: Sendable, Hashable {
        /// A CSV file, relative to the job file; its first line names the columns.
        case file(Template)
        /// A list of mappings of column values.
        case rows(TemplateValue)
    }

    var table: Template
    var source: Source
}
