import ClaudeStreaming
import Testing

@Suite struct NonEventStreamInputTests {
    @Test func recognisesHTMLAndJSONButNotEventStreams() {
        func kind(_ text: String) -> NonEventStreamInput? { NonEventStreamInput(firstBytes: Array(text.utf8)) }
        #expect(kind("<!DOCTYPE html><html>502</html>") == .html)
        #expect(kind("\u{FEFF}\r\n  <html>") == .html)
        #expect(kind(#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#) == .json)
        #expect(kind("\n[1]") == .json)
        #expect(kind("event: message_start\ndata: {}\n\n") == nil)
        #expect(kind(": comment\n") == nil)
        #expect(kind("data: {\"type\":\"ping\"}\n\n") == nil)
        #expect(kind("   \n") == nil)
        #expect(kind("") == nil)
        #expect(NonEventStreamInput.json.description == "input looks like JSON, not an event stream")
    }
}
