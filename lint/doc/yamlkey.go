package doc

import "strings"

// loaderKeyID is how the duplicate-key check compares plain (untagged, unquoted) key text s: two
// keys repeat each other when their IDs are equal. A key every loader the frameworks use reads
// as a string is its text, which is also the ID of a quoted key; any other is marked
// ("\x00" + text), so it repeats only the same plain text, which every loader reads alike. The
// loaders differ on some texts: PyYAML's SafeLoader reads `2001-01-01` as a date and "1:30" as
// 90 (resolver.py, 5.1 to 6.0.3); OmegaConf's (_utils.py get_yaml_loader, 2.0.1 to 2.3) and
// jsonargparse's (_loaders_dumpers.py DefaultLoader) drop the timestamp resolver and read "1e3"
// as a float, where PyYAML reads a string. So a plain date beside the same date quoted is two
// keys to PyYAML (no finding) and one to OmegaConf, whose own check refuses it (the dialects).
// Keys written differently that a loader reads as one value (yes and true, 1 and 1.0) are not
// compared.
func loaderKeyID(s string) string {
	if plainType(s) == String && !AnyLoaderNumber(s) && !pyyamlTimestamp(s) {
		return s
	}
	return "\x00" + s
}

// pyyamlTimestamp reports whether PyYAML's timestamp resolver may take s, which starts as
// every date and time it takes does: four digits and a dash (YYYY-MM-DD, YYYY-M-D HH:MM:SS).
// A wider test than the resolver's, so some strings are marked too: their repeats are then
// found only when written alike.
func pyyamlTimestamp(s string) bool {
	return len(s) > 5 && s[4] == '-' && strings.Trim(s[:4], "0123456789") == ""
}

// DayExists reports whether month m and day d name a day of year y in the Gregorian calendar
// (February 29 in leap years only), for TOML's dates and PyYAML's; the year's own bounds are
// the caller's.
func DayExists(y, m, d int) bool {
	if m < 1 || m > 12 || d < 1 {
		return false
	}
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return d <= days
}
