// The recording `claude-stream replay` shows when given no file, written for
// this project: extended thinking with a signature, text, a web search whose
// input streams and whose results arrive whole, text with a citation, and a
// client tool call. Every kind of block the renderer draws appears once.

/// A recorded Messages API stream bundled with the package, for the
/// command line's `replay` and the tests. `package`: it is a fixture of
/// this package's own tools, not API for apps that depend on it.
package enum DemoRecording {
    /// The raw bytes of the stream, exactly as the server would send them.
    package static var bytes: [UInt8] { Array(sse.utf8) }

    /// The stream as text (the literal's last line break is not part of it,
    /// hence the extra blank line before the closing delimiter).
    package static let sse: String = #"""
        event: message_start
        data: {"type":"message_start","message":{"id":"msg_demo_01","type":"message","role":"assistant","model":"claude-opus-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1284,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":3,"service_tier":"standard"}}}

        event: content_block_start
        data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

        event: ping
        data: {"type":"ping"}

        event: content_block_delta
        data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user wants to know "}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"whether it will rain in Lisbon "}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"this weekend and what to pack. "}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"I should search for the current forecast, "}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"then check the weather tool for details."}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCkYIBxgCKkDemoSignatureOnlyForThisBundledRecordingAAAA=="}}

        event: content_block_stop
        data: {"type":"content_block_stop","index":0}

        event: content_block_start
        data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"I'll look up "}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"the forecast for Lisbon."}}

        event: content_block_stop
        data: {"type":"content_block_stop","index":1}

        event: content_block_start
        data: {"type":"content_block_start","index":2,"content_block":{"type":"server_tool_use","id":"srvtoolu_demo_01","name":"web_search","input":{}}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"query\": "}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"\"Lisbon weather "}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"forecast this "}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"weekend\"}"}}

        event: content_block_stop
        data: {"type":"content_block_stop","index":2}

        event: content_block_start
        data: {"type":"content_block_start","index":3,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_demo_01","content":[{"type":"web_search_result","title":"Lisbon, Portugal 10-day forecast","url":"https://weather.example.com/lisbon","encrypted_content":"RGVtb0VuY3J5cHRlZENvbnRlbnRPbmU=","page_age":"2 hours ago"},{"type":"web_search_result","title":"Portugal weekend outlook: showers on the coast","url":"https://news.example.org/portugal-outlook","encrypted_content":"RGVtb0VuY3J5cHRlZENvbnRlbnRUd28=","page_age":null}]}}

        event: content_block_stop
        data: {"type":"content_block_stop","index":3}

        event: content_block_start
        data: {"type":"content_block_start","index":4,"content_block":{"type":"text","text":"","citations":null}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":4,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","cited_text":"Showers are likely on Saturday afternoon, clearing by Sunday morning.","url":"https://weather.example.com/lisbon","title":"Lisbon, Portugal 10-day forecast","encrypted_index":"RGVtb0luZGV4MQ=="}}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":4,"delta":{"type":"text_delta","text":"Expect showers on Saturday afternoon, "}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":4,"delta":{"type":"text_delta","text":"clearing by Sunday morning "}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":4,"delta":{"type":"text_delta","text":"— pack a light rain jacket ☔ and layers."}}

        event: content_block_stop
        data: {"type":"content_block_stop","index":4}

        event: content_block_start
        data: {"type":"content_block_start","index":5,"content_block":{"type":"tool_use","id":"toolu_demo_01","name":"get_weather","input":{}}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":5,"delta":{"type":"input_json_delta","partial_json":""}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":5,"delta":{"type":"input_json_delta","partial_json":"{\"location\": \"Lis"}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":5,"delta":{"type":"input_json_delta","partial_json":"bon, Portugal\", "}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":5,"delta":{"type":"input_json_delta","partial_json":"\"unit\": \"celsius\", \"days\": "}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":5,"delta":{"type":"input_json_delta","partial_json":"3}"}}

        event: content_block_stop
        data: {"type":"content_block_stop","index":5}

        event: message_delta
        data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":312,"server_tool_use":{"web_search_requests":1}}}

        event: message_stop
        data: {"type":"message_stop"}


        """#
}
