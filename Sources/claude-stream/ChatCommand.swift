enum ChatCommand {
    static func run(_ arguments: [String]) async -> Int32 {
        CLIOutput.standardError("not built yet")
        return 70
    }
}
