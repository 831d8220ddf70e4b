package dialect

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// The reading kit: what OmegaConf refuses as it loads a file. From version 2.1 OmegaConf parses
// every string value that holds "${" with its interpolation grammar when the value is set, as
// the file is loaded (omegaconf/nodes.py ValueNode._set_value, dictconfig.py and listconfig.py
// with strict_interpolation_validation=True; _utils.py _is_interpolation_string; checked at
// v2.1.0 and v2.3.0), and stops with a GrammarParseError when the value does not parse. NeMo
// (through Hydra), torchtune (config/_parse.py, OmegaConf.load) and llm-foundry
// (command_utils/train.py, om.load) load their files so, and LLaMA-Factory from v0.9.3
// (lfOmegaConf).
//
// The verdict is the grammar's (kit_omegaconf_grammar.go, a recogniser of OmegaConf's lexer and
// parser and of the pattern it tries first, held to OmegaConf itself by
// TestOmegaConfGrammarAgreesWithOmegaConf). The wording comes from the lexer's rules where one
// says why: an interpolation "${" (not escaped: an even number of backslashes before it) with no
// "}" anywhere after it can never be closed; and the key of a plain node interpolation, one whose
// text up to the first "}" holds no ":" (a resolver), "[", "]" or nested "${", can hold no
// whitespace except at its ends, none of ( ) { \ ' ", and must name a key: "${}", "${a.}",
// "${a..b}" and "${a b}" do not parse. Otherwise the finding quotes where the parse stops, such
// as the "=" of "${f:a=b}" (an unquoted resolver argument cannot hold it).

// omegaconfLoad says what loads a file with OmegaConf: the distribution whose version decides,
// the versions whose loading parses interpolations (from since; read is the newest checked),
// where the loading happens, and the first version whose loading refuses a repeated key
// (dupSince: OmegaConf's own loader does from 2.0.1, see omegaconfDuplicateKeys).
type omegaconfLoad struct{ pkg, since, read, source, dupSince string }

// byOmegaConf is a framework that has always loaded its files with OmegaConf: OmegaConf's own
// version decides.
var byOmegaConf = omegaconfLoad{"omegaconf", "2.1.0", "2.3.0", "OmegaConf's interpolation grammar, applied as the file is loaded", "2.0.1"}

// omegaconfLoadChecks adds OmegaConf's load-time refusals of d (interpolations that do not
// parse, repeated keys, tags it cannot build, null keys) to p, for a file loaded as by says.
func omegaconfLoadChecks(p *plan.Plan, d *doc.Document, by omegaconfLoad) {
	p.OmegaConfChecked = true
	omegaconfInterpolations(p, d.Root, by)
	omegaconfDuplicateKeys(p, d.Src, d.Root, by)
	omegaconfTags(p, d, by)
	omegaconfNullKeys(p, d.Src, d.Root, by)
}

// omegaconfBareKey reports whether n's key is plain and written with no tag or anchor before it:
// what precedes it on its line, past spaces, is the line's start, "-", "?", "{" or ",".
func omegaconfBareKey(src []byte, n *doc.Node) bool {
	s := n.KeySpan.Start.Offset
	if n.KeySpan.IsZero() || s < 0 || s >= len(src) || src[s] == '"' || src[s] == '\'' {
		return false
	}
	for s > 0 && (src[s-1] == ' ' || src[s-1] == '\t') {
		s--
	}
	return s == 0 || strings.IndexByte("\n-?{,", src[s-1]) >= 0
}

// omegaconfNullKeys adds a start-up refusal to p for each plain key of root that YAML reads as
// null (null, Null, NULL, ~): OmegaConf takes str, int, float, bool, Enum and (from 2.2) bytes
// keys, str and Enum alone in 2.0, and raises KeyValidationError "Incompatible key type
// 'NoneType'" for None (dictconfig.py _s_validate_and_normalize_key, v2.0.1 to v2.3.1).
func omegaconfNullKeys(p *plan.Plan, src []byte, root *doc.Node, by omegaconfLoad) {
	if root == nil {
		return
	}
	root.Walk(func(n *doc.Node) bool {
		if n.Alias {
			return false
		}
		if n.Kind != doc.Map {
			return true
		}
		for _, c := range n.Children {
			if c.Alias {
				continue // an entry a merge key brought in: judged where it is written
			}
			switch c.Key {
			case "null", "Null", "NULL", "~":
			default:
				continue
			}
			if !omegaconfBareKey(src, c) {
				continue // quoted, or after a tag or an anchor: left unjudged
			}
			p.Rejections = append(p.Rejections, plan.Rejection{Node: c, Key: c.Path().String(), AtKey: true,
				Message: "the key " + c.Key + " is read as null, which OmegaConf does not take as a key",
				Says:    "Incompatible key type 'NoneType'", Package: by.pkg, Since: by.dupSince, Read: by.read,
				Source: "OmegaConf's DictConfig, which takes string, number, boolean and enum keys",
				Help:   "quote the key (\"" + c.Key + "\") or rename it"})
		}
		return true
	})
}

// omegaconfPathTags are the tags OmegaConf's loader builds beyond SafeLoader's from 2.2.1
// (_utils.py get_yaml_loader, add_constructor; 2.0.1 to 2.1.x have none): judged by no version.
var omegaconfPathTags = map[string]bool{"!!python/object/apply:pathlib.Path": true,
	"!!python/object/apply:pathlib.PosixPath": true, "!!python/object/apply:pathlib.WindowsPath": true}

// omegaconfTags adds a start-up refusal to p for each node of d written with a tag OmegaConf's
// loader has no constructor for. The loader is PyYAML's SafeLoader (OmegaConfLoader in
// omegaconf/_utils.py, 2.0.1 to 2.3.1), which builds only YAML's own types (doc.Tagged lists the
// others) and raises ConstructorError "could not determine a constructor for the tag" for any
// other tag as it builds the file (yaml/constructor.py, construct_undefined, 5.1 to 6.0.3).
func omegaconfTags(p *plan.Plan, d *doc.Document, by omegaconfLoad) {
	if d.Root == nil {
		return
	}
	for _, t := range d.Tagged {
		if omegaconfPathTags[t.Tag] || t.Node == nil {
			continue
		}
		if t.Tag == "!!set" || t.Tag == "!!timestamp" {
			omegaconfUnsupported(p, t, by)
			continue
		}
		long := t.Tag
		if strings.HasPrefix(long, "!!") {
			long = "tag:yaml.org,2002:" + long[2:]
		}
		tag := doc.Shorten(t.Tag, 60)
		p.Rejections = append(p.Rejections, plan.Rejection{Node: t.Node, Key: t.Node.Path().String(),
			Message: "the tag " + tag + " names a type OmegaConf's YAML loader cannot build",
			Says:    "could not determine a constructor for the tag '" + doc.Shorten(long, 80) + "'",
			Package: by.pkg, Since: by.dupSince, Read: by.read,
			Source: "OmegaConf's YAML loader, PyYAML's SafeLoader, which builds YAML's standard types only",
			Help:   "delete the tag " + tag + " and write the value as a plain YAML list, mapping or scalar (a list for a tuple)"})
	}
}

// omegaconfUnsupported adds a start-up refusal to p for a !!set mapping or a !!timestamp date
// (YYYY-MM-DD, a valid day): PyYAML's SafeLoader builds a Python set or date, which OmegaConf's
// value nodes refuse with UnsupportedValueType "Value 'set' is not a supported primitive type"
// (nodes.py AnyNode and _utils.py is_primitive_type, 2.0.1 to 2.3.0, neither a list nor a dict
// either; seen with Debian's 2.2.2). Other texts under these tags (a date and time, a set
// written as a list) are left unjudged.
func omegaconfUnsupported(p *plan.Plan, t doc.Tagged, by omegaconfLoad) {
	typ, help := "set", "write the set as a list"
	if t.Tag == "!!set" && t.Node.Kind != doc.Map {
		return
	}
	if t.Tag == "!!timestamp" {
		if !yamlDate(t.Node) {
			return
		}
		typ, help = "date", "delete the tag, so the date is read as a string"
	}
	p.Rejections = append(p.Rejections, plan.Rejection{Node: t.Node, Key: t.Node.Path().String(),
		Message: "the tag " + t.Tag + " makes a Python " + typ + ", which an OmegaConf config cannot hold",
		Says:    "Value '" + typ + "' is not a supported primitive type",
		Package: by.pkg, Since: by.dupSince, Read: by.read,
		Source: "OmegaConf's config values (AnyNode), which are primitive types, lists and mappings",
		Help:   help})
}

// yamlDate reports whether n is a scalar PyYAML's timestamp constructor makes a date of:
// YYYY-M-D (month and day of one or two digits) naming a day that exists (constructor.py,
// timestamp_regexp and construct_yaml_timestamp, 5.1 to 6.0.3).
func yamlDate(n *doc.Node) bool {
	parts := strings.Split(n.Value, "-")
	if n.Kind != doc.Scalar || len(parts) != 3 || len(parts[0]) != 4 || len(parts[1]) > 2 || len(parts[2]) > 2 {
		return false
	}
	var ymd [3]int
	for i, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
		ymd[i], _ = strconv.Atoi(p)
	}
	return ymd[0] >= 1 && doc.DayExists(ymd[0], ymd[1], ymd[2]) // Python's date() starts at year 1
}

// omegaconfInterpolations adds a start-up refusal to p for each value of root that holds an
// interpolation OmegaConf cannot parse.
func omegaconfInterpolations(p *plan.Plan, root *doc.Node, by omegaconfLoad) {
	if root == nil {
		return
	}
	root.Walk(func(n *doc.Node) bool {
		if n.Alias {
			return false // a copy of an anchored value, judged where it is written
		}
		if n.Kind != doc.Scalar {
			return true
		}
		i, why := badInterpolation(n.Value)
		if i < 0 {
			return true
		}
		excerpt := doc.Shorten(n.Value[i:], 40)
		p.Rejections = append(p.Rejections, plan.Rejection{Node: n, Key: n.Path().String(),
			Message: "the interpolation " + strconv.Quote(excerpt) + " " + why,
			Says:    "GrammarParseError", Package: by.pkg, Since: by.since, Read: by.read,
			Source: by.source,
			Help:   "write ${key.path} (no spaces inside) or ${resolver:args}, closed with }; quote an argument that holds other punctuation (${resolver:'a=b'}); \\${ is a literal ${"})
		return true
	})
}

// badInterpolation returns the offset in s of an interpolation OmegaConf cannot parse and why,
// or -1: any version from 2.1 refuses s (ocNewest, the most permissive, does). A value nested
// past what the recogniser judges keeps the lexer rules' verdict alone.
func badInterpolation(s string) (int, string) {
	top, at, judged := ocNewest.refuses(s)
	if judged && at < 0 {
		return -1, ""
	}
	if i, why := keyProblem(s); i >= 0 || !judged {
		return i, why
	}
	if at >= len(s) {
		return top, "ends before it is closed"
	}
	return top, "does not parse where it reads " + strconv.Quote(doc.Shorten(s[at:], 12))
}

// keyProblem returns the offset in s of an interpolation whose key or closing the lexer's rules
// refuse, and why, or -1. An opening preceded by an odd number of backslashes is escaped
// (OmegaConf's ESC_INTER) and not one.
func keyProblem(s string) (int, string) {
	last := -1
	closeAt := -1 // the first "}" at or after the last opening looked at: found once per "}"
	for i := 0; ; {
		j := strings.Index(s[i:], "${")
		if j < 0 {
			break
		}
		j += i
		i = j + 2
		if ocEscaped(s, j) {
			continue
		}
		last = j
		if closeAt < j+2 {
			closeAt = strings.IndexByte(s[j+2:], '}')
			if closeAt < 0 {
				break
			}
			closeAt += j + 2
		}
		key := s[j+2 : closeAt]
		// A nested opening first: the search stops at it, so the keys searched in full do not
		// overlap and a value is read a bounded number of times whatever its openings.
		if strings.Contains(key, "${") || strings.ContainsAny(key, ":[]") {
			continue // a nested interpolation, a resolver or an index: the grammar's to judge
		}
		key = strings.Trim(key, " \t")
		switch {
		case strings.ContainsAny(key, " \t"):
			return j, "has a space inside its key"
		case strings.ContainsAny(key, "(){\\'\""):
			return j, "holds a character a key cannot"
		case strings.TrimLeft(key, ".") == "" || strings.HasSuffix(key, ".") || strings.Contains(strings.TrimLeft(key, "."), ".."):
			return j, "names no key"
		}
	}
	if last < 0 || closeAt >= last+2 {
		return -1, ""
	}
	return last, "is never closed with }"
}

// OmegaConf's YAML loader (OmegaConfLoader in omegaconf/_utils.py, from v2.0.1 to v2.3.1) refuses
// a mapping that repeats a key: before constructing each mapping it raises ConstructorError
// ("found duplicate key") for a key node whose tag is str and whose text it has seen in that
// mapping. Keys of other tags (1, true, null) and merge keys are not compared. PyYAML alone keeps
// the later value, which is what rule duplicate-key says; for a file OmegaConf loads, the load
// stops instead.
// omegaconfDuplicateKeys adds a start-up refusal to p for each key of root that repeats one of
// its mapping whose tag OmegaConf's loader resolves to str (src is the file's text, for how
// each key is written).
func omegaconfDuplicateKeys(p *plan.Plan, src []byte, root *doc.Node, by omegaconfLoad) {
	if root == nil {
		return
	}
	root.Walk(func(n *doc.Node) bool {
		if n.Alias {
			return false
		}
		if n.Kind != doc.Map || len(n.Children) < 2 {
			return true
		}
		var seen map[string]*doc.Node
		for _, c := range n.Children {
			if c.Alias || !omegaconfStrKey(src, c) {
				continue
			}
			if seen == nil {
				seen = map[string]*doc.Node{}
			}
			first, dup := seen[c.Key]
			if !dup {
				seen[c.Key] = c
				continue
			}
			p.Rejections = append(p.Rejections, plan.Rejection{Node: c, Key: c.Path().String(), Repeats: first,
				Message: "key " + strconv.Quote(doc.Shorten(c.Key, 40)) + " is repeated in its mapping",
				Says:    "found duplicate key " + doc.Shorten(c.Key, 40), Package: by.pkg, Since: by.dupSince, Read: by.read,
				Source: "OmegaConf's YAML loader, which refuses a repeated key",
				Help:   "keep one occurrence of the key, with the value you mean"})
		}
		return true
	})
}

// omegaconfStrKey reports whether n's key is one OmegaConf's loader gives the str tag: quoted,
// or plain and matched by none of its implicit resolvers (yamlResolvesPlain). A plain key that
// starts with one of YAML's indicators or follows a tag or an anchor is left out, as is an
// empty one.
func omegaconfStrKey(src []byte, n *doc.Node) bool {
	s, e := n.KeySpan.Start.Offset, n.KeySpan.End.Offset
	if n.KeySpan.IsZero() || s < 0 || e > len(src) || s >= e {
		return false
	}
	switch c := src[s]; {
	case c == '"' || c == '\'':
		return true
	case strings.IndexByte("?!&*[]{},#|>%@`", c) >= 0 || !omegaconfBareKey(src, n):
		return false // after a tag (!!null x) or an anchor: left unjudged
	}
	return n.Key != "" && !yamlResolvesPlain(n.Key)
}

// yamlResolvesPlain reports whether some implicit resolver of OmegaConf's loader, in any
// version from 2.0.1 to 2.3.1, gives plain text s a tag other than str. The loader is PyYAML's
// SafeLoader (its resolvers in yaml/resolver.py, unchanged from 5.1 to 6.0.3: bool, int,
// float, null, merge "<<" and value "="), without the timestamp resolver and with a float
// pattern of OmegaConf's own that also takes "1e5" and "1_0e-3". PyYAML tries a resolver only
// on texts starting with one of its first characters, and every pattern below starts with
// the characters listed for it. OmegaConf 2.3 narrowed its float pattern (no "_" right after
// a digit run's start or a dot); the older, wider one is used, so a text is str only where
// every version says so.
func yamlResolvesPlain(s string) bool {
	switch s {
	case "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
		"on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~", "<<", "=":
		return true
	}
	if s == "" || strings.IndexByte("-+0123456789.", s[0]) < 0 {
		return false
	}
	return doc.AnyLoaderNumber(s)
}

// byHydra: Hydra reads a run's primary config and every config-group file with OmegaConf.load
// (hydra/_internal/core_plugins/file_config_source.py, FileConfigSource.load_config), so
// OmegaConf's version decides, whatever the framework the file configures.
var byHydra = omegaconfLoad{"omegaconf", "2.1.0", "2.3.0", "OmegaConf's interpolation grammar, applied as Hydra loads the file (OmegaConf.load)", "2.0.1"}

// HydraLoadChecks adds OmegaConf's load-time refusals (interpolations that do not parse,
// repeated keys) to p for a file Hydra loads, unless its dialect has added them already.
func HydraLoadChecks(p *plan.Plan, d *doc.Document) {
	if p == nil || d == nil || p.OmegaConfChecked {
		return
	}
	omegaconfLoadChecks(p, d, byHydra)
}
