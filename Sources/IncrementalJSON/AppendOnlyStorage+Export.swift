// JSON values hold their text as `AppendOnlyText` and their arrays in
// `AppendOnlyArray`, which live in the AppendOnlyStorage module. Re-exported
// so that `import IncrementalJSON` alone names every type its API uses, as
// it did when the storage lived in this module.
@_exported import AppendOnlyStorage
