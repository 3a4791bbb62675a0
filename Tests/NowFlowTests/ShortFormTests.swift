import Testing

@testable import NowFlow

@Suite struct ShortFormTests {
    /// The step mapping of a short form, as the YAML it stands for.
    func yaml(_ line: String) throws -> String {
        YAMLEmitter.text(of: try ShortForm.node(line))
    }

    @Test func eachKindBecomesTheStepMappingOfAJobFile() throws {
        #expect(try yaml("query incident active=true limit=5 fields=number,state") == """
            query:
              table: incident
              limit: 5
              fields: number,state
              where:
                active: true

            """)
        #expect(try yaml("get incident 0123 display_value=true id=one") == """
            id: one
            get:
              table: incident
              sys_id: 0123
              display_value: true

            """)
        #expect(try yaml(#"create incident short_description="Printer on fire" urgency=2 note='it''s "hot"'"#) == """
            create:
              table: incident
              fields:
                short_description: 'Printer on fire'
                urgency: 2
                note: 'its "hot"'

            """)
        #expect(try yaml("update incident ${ steps._.sys_id } state=2 when=vars.go") == """
            when: vars.go
            update:
              table: incident
              sys_id: ${ steps._.sys_id }
              fields:
                state: 2

            """)
        #expect(try yaml("delete incident active=false max=3") == """
            delete:
              table: incident
              max: 3
              where:
                active: false

            """)
        #expect(try yaml(#"set a=1 b="two""#) == """
            set:
              a: 1
              b: 'two'

            """)
        #expect(try yaml("assert steps._.count > 0") == """
            assert: 'steps._.count > 0'

            """)
    }

    @Test func quotedValuesTakeEscapesAndStayStrings() throws {
        let words = try ShortForm.words(#"x="a \"b\"\n" y='2' z=2"#)
        #expect(words.map(\.value) == ["a \"b\"\n", "2", "2"])
        #expect(words.map(\.quoted) == [true, true, false])
        #expect(words.map(\.valueColumn) == [3, 17, 23])
    }

    @Test func mistakesSayWhatAndWhere() {
        #expect(throws: ReplInputError(message: "query needs a table, as in: query TABLE [name=value]...", column: 1)) {
            try ShortForm.node("query")
        }
        #expect(throws: ReplInputError(message: "unexpected 'extra': get takes a table and a sys_id, then name=value words", column: 18)) {
            try ShortForm.node("get incident abc extra")
        }
        #expect(throws: ReplInputError(message: "the quote opened here is not closed", column: 25)) {
            try ShortForm.node("create incident summary='oops")
        }
        #expect(throws: ReplInputError(message: "set takes name=value words, not 'x'", column: 5)) {
            try ShortForm.node("set x")
        }
    }
}
