package dialect

// changedInPatchForTest is what bracket knows of patch releases changing the table.
func (k *Knowledge) changedInPatchForTest() bool {
	k.parseTags()
	return k.patchChanges
}
