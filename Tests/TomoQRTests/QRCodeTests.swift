import Testing
import TomoQR

/// libqrencode's symbols: the smallest version that holds the text, every byte of it, and a
/// failure (no crash) past what version 40 holds.
@Suite struct QRCodeTests {
    @Test func theSymbolGrowsWithTheTextByFourModulesAVersion() throws {
        var sizes: [Int] = []
        for length in [1, 14, 100, 500, 1_000, 2_000, QRCode.byteLimit] {
            let code = try QRCode(encoding: String(repeating: "a", count: length))
            // Version v is 17 + 4v modules wide: 21 for version 1, 177 for version 40.
            #expect((21...177).contains(code.size) && (code.size - 17) % 4 == 0, "\(length) bytes: \(code.size) modules")
            sizes.append(code.size)
        }
        #expect(sizes.first == 21)
        #expect(sizes.last == 177)
        #expect(sizes == sizes.sorted())
    }

    @Test func aTextPastTheLargestSymbolIsAFailureNotACrash() {
        for length in [QRCode.byteLimit + 1, 3_000, 100_000] {
            #expect(throws: QRCode.Failure.tooLong(bytes: length, limit: QRCode.byteLimit)) {
                try QRCode(encoding: String(repeating: "a", count: length))
            }
        }
        // Bytes, not characters: 800 three-byte characters are 2,400 bytes.
        #expect(throws: QRCode.Failure.tooLong(bytes: 2_400, limit: QRCode.byteLimit)) {
            try QRCode(encoding: String(repeating: "日", count: 800))
        }
    }

    @Test func everyByteIsEncodedANulOneToo() throws {
        let short = try QRCode(encoding: "https://example.com/a")
        let withNul = try QRCode(encoding: "https://example.com/a\u{0}" + String(repeating: "b", count: 40))
        // Encoded as a C string, the text would stop at the NUL and give the first symbol.
        #expect(withNul.size > short.size)
    }

    @Test func runsCoverExactlyTheDarkModulesOfEachRow() throws {
        let code = try QRCode(encoding: "https://example.com/alice/")
        let runs = code.darkRuns
        #expect(!runs.isEmpty)
        for (index, run) in runs.enumerated() {
            #expect(run.length > 0 && run.column >= 0 && run.column + run.length <= code.size && (0..<code.size).contains(run.row))
            // Two runs of a row never touch: each is as long as it can be.
            if index > 0, runs[index - 1].row == run.row {
                #expect(runs[index - 1].column + runs[index - 1].length < run.column)
            }
        }
        // The top-left finder pattern: a full row of seven dark modules, then a light one.
        #expect(runs.first.map { $0.row == 0 && $0.column == 0 && $0.length == 7 } == true)
    }
}
