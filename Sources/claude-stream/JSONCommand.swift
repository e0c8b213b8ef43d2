enum JSONCommand {
    static func run(_ arguments: [String]) -> Int32 {
        CLIOutput.standardError("not built yet")
        return 70
    }
}
