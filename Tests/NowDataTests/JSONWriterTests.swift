import Foundation
import Testing

@testable import NowData

@Suite struct JSONWriterTests {
    @Test func stringsAreEscapedOnlyWhereJSONRequires() {
        var writer = JSONWriter()
        writer.raw("[")
        for (index, text) in ["plain", "", "say \"hi\"", #"C:\temp"#, "two\nlines\r\tend", "bell\u{07}", "café ✓"]
            .enumerated()
        {
            if index > 0 { writer.raw(UInt8(ascii: ",")) }
            writer.string(text)
        }
        writer.raw("]")
        #expect(
            String(decoding: writer.data, as: UTF8.self)
                == #"["plain","","say \"hi\"","C:\\temp","two\nlines\r\tend","bell\u0007","café ✓"]"#)
    }

    @Test func encodedKeysAreWrittenAsIs() {
        var writer = JSONWriter()
        writer.raw("{")
        writer.raw(JSONWriter.encodedKey("caller_id.name"))
        writer.string("Abel Tuter")
        writer.raw(UInt8(ascii: ","))
        writer.raw(JSONWriter.encodedKey("odd\"key"))
        writer.raw(String(42).utf8)
        writer.raw("}")
        #expect(String(decoding: writer.data, as: UTF8.self) == #"{"caller_id.name":"Abel Tuter","odd\"key":42}"#)
    }
}
