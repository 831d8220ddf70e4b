//go:build !trainlint_lite

package doc

// The full build reads every format (lite.go says what the light build leaves out).

func readGin(d *Document, lim Limits) { parseGin(d, lim) }

func readPython(d *Document, lim Limits, configArg string) { parsePython(d, lim, configArg) }

func readTOML(d *Document, lim Limits) { parseTOML(d, lim) }
