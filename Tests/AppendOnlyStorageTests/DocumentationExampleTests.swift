// The worked example of AppendOnlyStorage.docc/AppendOnlyStorage.md, run, so
// the catalog cannot drift from the code.

import AppendOnlyStorage
import Testing

@Suite struct DocumentationExampleTests {
    @Test func catalogWorkedExample() {
        var text = AppendOnlyText()
        var snapshots: [AppendOnlyText] = []
        for piece in ["Hello", ", wor", "ld"] {
            text.append(piece)
            snapshots.append(text)
        }
        #expect(snapshots.map(\.string) == ["Hello", "Hello, wor", "Hello, world"])

        var fork = snapshots[0]
        fork.append("!")
        #expect(fork.string == "Hello!")
        #expect(snapshots[2].string == "Hello, world")
    }
}
