print("claude-stream")
