#!/usr/bin/env python3
"""Extract axolotl's and LLaMA-Factory's config knowledge from source at release tags (generator only).

    extract_finetune.py axolotl GITDIR TAG... > testdata/axolotl.json
    extract_finetune.py llamafactory GITDIR TAG... > testdata/llamafactory.json

Same JSON as extract.py (one class per framework section, "" = the file's root), plus:
  - field "enum": the closed set of values the field's type allows (Literal[...] and the
    framework's own str Enum classes; a type naming anything else stays open, no "enum");
  - tag "checks": start-up refusals the file decides, read from validators of the shape
    `if COND: raise ...` whose COND only tests keys of the file (see cond()), with the message.

axolotl: AxolotlInputConfig and every model it combines (bases followed through imports), the
plugins' args models (src/axolotl/integrations/*/args.py, merged into the schema when a plugin is
listed), its `extra` policy (model_config; pydantic's default is "ignore"), and the
`@model_validator(mode="before")` / `@field_validator` checks. LLaMA-Factory: the hparams
dataclasses HfArgumentParser is given (it refuses unknown keys); Seq2SeqTrainingArguments comes
from transformers and is not read here.
"""
import ast
import json
import re
import sys

from extract import fields, find_class, literal, show, src

AXO_ROOT = ("src/axolotl/utils/schemas/config.py", "AxolotlInputConfig")
AXO_OLD_ROOT = ("src/axolotl/utils/config/models/input/v0_4_1/__init__.py", "AxolotlInputConfig")
AXO_PLUGINS = "src/axolotl/integrations/"

LF_CLASSES = [
    ("src/llamafactory/hparams/model_args.py", "ModelArguments"),
    ("src/llamafactory/hparams/data_args.py", "DataArguments"),
    ("src/llamafactory/hparams/training_args.py", "TrainingArguments"),
    ("src/llamafactory/hparams/finetuning_args.py", "FinetuningArguments"),
    ("src/llamafactory/hparams/generating_args.py", "GeneratingArguments"),
    ("src/llamafactory/hparams/evaluation_args.py", "EvaluationArguments"),
]


def module_file(path, st, prefix):
    """The file an import statement in path names: relative (from .x import Y) or absolute
    within the package (from axolotl.utils.schemas.x import Y, under prefix "src/")."""
    if st.level > 0:
        parts = path.split("/")[:-1]
        if st.level > 1:
            parts = parts[:-(st.level - 1)]
        return "/".join(parts + (st.module.split(".") if st.module else []))
    if st.module and prefix is not None:
        return prefix + st.module.replace(".", "/")
    return None


class Reader:
    def __init__(self, gitdir, tag, prefix):
        self.gitdir, self.tag, self.prefix = gitdir, tag, prefix
        self.trees = {}

    def tree(self, path):
        if path not in self.trees:
            text = show(self.gitdir, self.tag, path)
            self.trees[path] = ast.parse(text) if text is not None else None
        return self.trees[path]

    def resolve(self, path, name):
        """(file, tree) that defines name as seen from path, following imports."""
        t = self.tree(path)
        if t is None:
            return None, None
        if find_class(t, name) is not None:
            return path, t
        for st in t.body:
            if isinstance(st, ast.ImportFrom) and any(a.name == name for a in st.names):
                base = module_file(path, st, self.prefix)
                if base is None:
                    return None, None
                for cand in (base + ".py", base + "/__init__.py"):
                    ct = self.tree(cand)
                    if ct is not None:
                        if find_class(ct, name) is not None:
                            return cand, ct
                        return self.resolve(cand, name)
        return None, None

    def enums(self, path):
        """str Enum classes visible from path: name -> values."""
        out = {}
        t = self.tree(path)
        if t is None:
            return out
        names = [n.name for n in t.body if isinstance(n, ast.ClassDef)]
        for st in t.body:
            if isinstance(st, ast.ImportFrom):
                names += [a.name for a in st.names]
        for name in names:
            p, tr = self.resolve(path, name)
            cls = find_class(tr, name) if tr is not None else None
            if cls is None or not any(src(b).endswith("Enum") for b in cls.bases):
                continue
            vals = []
            for st in cls.body:
                if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                    v = literal(st.value)
                    if isinstance(v, str):
                        vals.append(v)
                    else:
                        vals = None
                        break
            if vals:
                out[name] = vals
        return out

    def walk(self, path, name, seen, out, depth=0):
        """Classes of name's MRO within the repository, bases first: (file, ClassDef)."""
        p, t = self.resolve(path, name)
        if t is None or (p, name) in seen or depth > 12:
            return
        seen.add((p, name))
        cls = find_class(t, name)
        for b in cls.bases:
            if isinstance(b, ast.Name) and b.id not in ("BaseModel", "object"):
                self.walk(p, b.id, seen, out, depth + 1)
        out.append((p, cls))


def enum_of(ann, enums):
    """The closed set of values a type annotation allows, None when it is open."""
    vals = []

    def members(a):
        if isinstance(a, ast.BinOp) and isinstance(a.op, ast.BitOr):
            return members(a.left) and members(a.right)
        if isinstance(a, ast.Constant) and a.value is None:
            return True
        if isinstance(a, ast.Subscript) and isinstance(a.value, ast.Name):
            inner = a.slice.elts if isinstance(a.slice, ast.Tuple) else [a.slice]
            if a.value.id == "Literal":
                for e in inner:
                    v = literal(e)
                    if not isinstance(v, str):
                        return False
                    vals.append(v)
                return True
            if a.value.id in ("Optional", "Union"):
                return all(members(e) for e in inner)
            return False
        if isinstance(a, ast.Name) and a.id in enums:
            vals.extend(enums[a.id])
            return True
        return False

    if ann is None or not members(ann) or not vals:
        return None
    return sorted(set(vals))


# Conditions the Go side evaluates on the file's values (lint/dialect knowledge checks):
#   T:key  truthy; N:key  absent or null; E:key=v1|v2  equal to one of the values;
#   !(...) negation; &(a,b,...) and; |(a,b,...) or.
KEYRE = re.compile(r"^[a-z][a-z0-9_]*$")
VALRE = re.compile(r"^[A-Za-z0-9_.\-]+$")


def value_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)) and VALRE.match(str(v)):
        return str(v)
    return None


NODEFAULT = object()


def with_default(atom, k, value, defaults):
    """An atom on a dataclass field: when the file leaves the key out, the field holds its
    default, so the atom's value then is value (computed here). A:k is "absent from the file"."""
    if defaults is None:
        return atom
    if defaults.get(k, NODEFAULT) is NODEFAULT:
        return None
    if atom.startswith("N:"):
        return atom if value else "&(" + atom + ",!(A:" + k + "))"
    return "|(" + atom + ",A:" + k + ")" if value else atom


def cond(node, key_of, defaults=None):
    """Encode a condition, or None when any part of it is not a plain test of file keys.
    key_of(expr) names the key an expression reads (data.get("k"), a validator's argument,
    self.k). defaults (dataclass fields: key -> default value) gives an absent key's value."""
    if isinstance(node, ast.BoolOp):
        parts = [cond(v, key_of, defaults) for v in node.values]
        if any(p is None for p in parts):
            return None
        return ("&(" if isinstance(node.op, ast.And) else "|(") + ",".join(parts) + ")"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        p = cond(node.operand, key_of, defaults)
        return None if p is None else "!(" + p + ")"
    dv = lambda k: (defaults or {}).get(k)  # noqa: E731
    k = key_of(node)
    if k:
        return with_default("T:" + k, k, bool(dv(k)), defaults)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        k = key_of(node.left)
        if not k:
            return None
        op, right = node.ops[0], node.comparators[0]
        if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(right, ast.Constant):
            if right.value is None:
                c = with_default("N:" + k, k, dv(k) is None, defaults)
            elif right.value is True or right.value is False:
                c = with_default("E:" + k + "=" + value_text(right.value), k, dv(k) is right.value, defaults)
            else:
                return None
            if c is None:
                return None
            return c if isinstance(op, ast.Is) else "!(" + c + ")"
        if isinstance(op, (ast.Gt, ast.Lt)):
            v = literal(right)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or value_text(v) is None:
                return None
            d = dv(k)
            if defaults is not None and not (isinstance(d, (int, float)) and not isinstance(d, bool)):
                return None
            static = d is not None and (d > v if isinstance(op, ast.Gt) else d < v)
            return with_default(("G:" if isinstance(op, ast.Gt) else "L:") + k + "=" + value_text(v), k, static, defaults)
        if isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
            v = literal(right)
            vs = list(v) if isinstance(op, (ast.In, ast.NotIn)) and isinstance(v, (list, tuple, set)) else [v]
            if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(v, (list, tuple, set, dict)):
                return None
            texts = [value_text(x) for x in vs]
            # Booleans and numbers compare by Python equality (True == 1): keep strings only.
            if not vs or any(t is None for t in texts) or not all(isinstance(x, str) for x in vs):
                return None
            c = with_default("E:" + k + "=" + "|".join(texts), k, dv(k) in vs, defaults)
            if c is None:
                return None
            return c if isinstance(op, (ast.Eq, ast.In)) else "!(" + c + ")"
    return None


def split_top(s):
    out, depth, start = [], 0, 0
    for i, ch in enumerate(s):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(s[start:i])
            start = i + 1
    return out + [s[start:]]


def cond_keys(c):
    return re.findall(r"(?:^|[(,])[TNEAGL]:([a-z0-9_]+)", c)


def quote_vals(v, neg):
    vs = ['"' + x + '"' if x not in ("true", "false") else x for x in v.split("|")]
    if len(vs) == 1:
        return ("not " if neg else "") + vs[0]
    return ("none of " if neg else "one of ") + ", ".join(vs)


def cond_text(c):
    """A condition in words, for messages: "warmup_steps and warmup_ratio are both set",
    "use_dora is set, finetuning_type is not "lora"" (the "or absent" alternatives that stand
    for a field's default are left out: words say what the value is)."""
    c = re.sub(r",A:[a-z0-9_]+", "", c)
    c = re.sub(r"\|\(([^(),]+)\)", r"\1", c)
    parts = split_top(c[2:-1]) if c.startswith("&(") and c.endswith(")") else [c]
    sets, unset, other = [], [], []
    for p in parts:
        m = re.fullmatch(r"!\(([TN]):([a-z0-9_]+)\)", p)
        if p.startswith("T:") and re.fullmatch(r"T:[a-z0-9_]+", p):
            sets.append(p[2:])
        elif m and m.group(1) == "N":
            sets.append(m.group(2))
        elif re.fullmatch(r"N:[a-z0-9_]+", p):
            unset.append(p[2:])
        elif m and m.group(1) == "T":
            unset.append(m.group(2))
        elif re.fullmatch(r"E:[a-z0-9_]+=[^(),]+", p):
            k, v = p[2:].split("=", 1)
            other.append(k + " is " + quote_vals(v, False))
        elif re.fullmatch(r"!\(E:[a-z0-9_]+=[^(),]+\)", p):
            k, v = p[4:-1].split("=", 1)
            other.append(k + " is " + quote_vals(v, True))
        elif re.fullmatch(r"[GL]:[a-z0-9_]+=[^(),]+", p):
            k, v = p[2:].split("=", 1)
            other.append(k + (" is above " if p[0] == "G" else " is below ") + v)
        else:
            other.append("the values of " + ", ".join(cond_keys(p)))
    words = []
    if len(sets) == 1:
        words.append(sets[0] + " is set")
    elif len(sets) == 2:
        words.append(sets[0] + " and " + sets[1] + " are both set")
    elif sets:
        words.append(", ".join(sets) + " are all set")
    words += other
    if unset:
        if not words:
            words.append(unset[0] + " is not set" if len(unset) == 1 else "neither " + " nor ".join(unset) + " is set")
        else:
            words[-1] += " without " + " or ".join(unset)
    return ", ".join(words)


def message(raise_node):
    """The text of `raise X("...")` (f-strings keep their literal parts)."""
    exc = raise_node.exc
    if not isinstance(exc, ast.Call) or not exc.args:
        return None
    parts = []

    def text(a):
        if isinstance(a, ast.Constant) and isinstance(a.value, str):
            parts.append(a.value)
        elif isinstance(a, ast.JoinedStr):
            for v in a.values:
                if isinstance(v, ast.Constant):
                    parts.append(v.value)
                else:
                    parts.append("...")
        elif isinstance(a, ast.BinOp) and isinstance(a.op, ast.Add):
            text(a.left)
            text(a.right)
        else:
            parts.append("...")

    text(exc.args[0])
    return " ".join("".join(parts).split())


def decorator_kind(fn):
    """("model", None) for @model_validator(mode="before"), ("field", [keys]) for a field
    validator that runs before or on the value as given; None otherwise."""
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and isinstance(d.func, ast.Name):
            mode = literal(kw_value(d, "mode"))
            if d.func.id == "model_validator" and mode == "before":
                return "model", None
            if d.func.id in ("field_validator", "validator") and mode in (None, "before", "after"):
                keys = [literal(a) for a in d.args]
                if keys and all(isinstance(k, str) for k in keys):
                    return "field", keys
    return None


def kw_value(call, name):
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return None


def axo_checks(classes, defaults):
    """Refusals in validators: `if COND: raise ...` at the top of a validator body. Model
    validators read the raw dict (data.get("k")); a field validator's argument is its key's
    value after type coercion. A check is dropped when a validator assigns any key its
    condition reads (data["k"] = ...): an earlier validator may have changed it."""
    assigned = set()
    fns = []
    for path, cls in classes:
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef):
                fns.append((path, fn))
                for n in ast.walk(fn):
                    if isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del)) and isinstance(n.slice, ast.Constant):
                        assigned.add(n.slice.value)
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("pop", "setdefault", "update") \
                            and n.args and isinstance(n.args[0], ast.Constant):
                        assigned.add(n.args[0].value)
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "update":
                        for k in n.keywords:
                            assigned.add(k.arg)
                        for a in n.args:
                            if isinstance(a, ast.Dict):
                                assigned.update(literal(k) for k in a.keys)
    out = []
    for path, fn in fns:
        kind = decorator_kind(fn)
        if kind is None:
            continue
        args = [a.arg for a in fn.args.args if a.arg not in ("cls", "self")]
        if not args:
            continue
        if kind[0] == "model":
            dname = args[0]

            def key_of(e, dname=dname):
                if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "get" \
                        and isinstance(e.func.value, ast.Name) and e.func.value.id == dname and len(e.args) == 1 \
                        and isinstance(e.args[0], ast.Constant) and isinstance(e.args[0].value, str) \
                        and KEYRE.match(e.args[0].value):
                    return e.args[0].value
                return None
        else:
            if len(kind[1]) != 1:
                continue
            fkey, aname = kind[1][0], args[0]

            def key_of(e, fkey=fkey, aname=aname):
                return fkey if isinstance(e, ast.Name) and e.id == aname else None
        scan(fn.body, key_of, None, assigned, fn.name, path, out, [])
    return out


def is_refusal(st):
    return isinstance(st, ast.Assert) or (isinstance(st, ast.If) and len(st.body) == 1
                                          and isinstance(st.body[0], ast.Raise) and not st.orelse)


def scan(body, key_of, defaults, assigned, name, path, out, guards):
    """The refusals of a function body, in order: `if C: raise`, `assert C, msg`, and the
    same nested under an `if G:` that holds nothing else; an earlier `if G: return` adds
    not-G to the later ones. Stops at any other flow it cannot follow (a return elsewhere)."""
    guards = list(guards)
    for st in body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue  # a local helper: its returns are its own
        if is_refusal(st):
            if isinstance(st, ast.Assert):
                c = cond(st.test, key_of, defaults)
                c = None if c is None else "!(" + c + ")"
                msg = literal(st.msg) if st.msg is not None else None
            else:
                c = cond(st.test, key_of, defaults)
                msg = message(st.body[0])
            if c is None or not isinstance(msg, str) or not msg:
                continue
            if guards:
                c = "&(" + ",".join(guards + [c]) + ")"
            keys = set(re.findall(r"[TNEGLA]:([a-z0-9_]+)", c))
            if keys & assigned:
                continue
            out.append({"name": name, "cond": c, "words": cond_text(c), "message": msg, "file": path, "line": st.lineno})
            continue
        if isinstance(st, ast.If) and not st.orelse and all(is_refusal(x) for x in st.body):
            g = cond(st.test, key_of, defaults)
            if g is not None:
                scan(st.body, key_of, defaults, assigned, name, path, out, guards + [g])
            continue
        if isinstance(st, ast.If) and isinstance(st.body[-1], ast.Return) and not st.orelse \
                and not any(isinstance(n, ast.Return) for b in st.body[:-1] for n in ast.walk(b)):
            g = cond(st.test, key_of, defaults)
            if g is None:
                break
            guards.append("!(" + g + ")")
            continue
        if any(isinstance(n, ast.Return) for n in ast.walk(st)):
            break  # flow this reading cannot follow


def deprecations(classes):
    """Field validators that only warn "X is deprecated, use Y": key -> Y."""
    out = {}
    for path, cls in classes:
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            kind = decorator_kind(fn)
            if not kind or kind[0] != "field" or len(kind[1]) != 1:
                continue
            for n in ast.walk(fn):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "warning" and n.args:
                    t = literal(n.args[0])
                    if isinstance(t, str) and "deprecated" in t:
                        m = re.search(r"\buse `?([a-z][a-z0-9_]*)`?", t)
                        out[kind[1][0]] = m.group(1) if m and m.group(1) != kind[1][0] else ""
    return out


def class_entry(rd, classes, section, name, path, line):
    merged = {}
    for p, cls in classes:
        enums = rd.enums(p)
        anns = {st.target.id: st.annotation for st in cls.body
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)}
        for f in fields(cls, p):
            f["file"] = p
            e = enum_of(anns.get(f["name"]), enums)
            if e:
                f["enum"] = e
            f.pop("type", None)
            merged[f["name"]] = f
    return {"class": name, "section": section, "file": path, "line": line,
            "fields": [merged[k] for k in sorted(merged)]}


def extra_policy(classes, root_path):
    """The root model's extra policy: model_config's "extra" (or ConfigDict(extra=...)), else
    pydantic's default "ignore" (unknown keys dropped without a word)."""
    for p, cls in reversed(classes):
        for st in cls.body:
            if isinstance(st, (ast.Assign, ast.AnnAssign)):
                tgt = st.targets[0] if isinstance(st, ast.Assign) else st.target
                if isinstance(tgt, ast.Name) and tgt.id == "model_config":
                    v = st.value
                    if isinstance(v, ast.Dict):
                        for k, x in zip(v.keys, v.values):
                            if literal(k) == "extra":
                                return {"policy": literal(x), "file": p, "line": st.lineno}
                    if isinstance(v, ast.Call):
                        x = kw_value(v, "extra")
                        if x is not None:
                            return {"policy": literal(x), "file": p, "line": st.lineno}
                    return {"policy": "ignore", "file": p, "line": st.lineno}
    return {"policy": "ignore", "file": root_path, "line": 0}


def axolotl(gitdir, tags):
    res = []
    for tag in tags:
        rd = Reader(gitdir, tag, "src/")
        path, name = AXO_ROOT
        if rd.tree(path) is None:
            path, name = AXO_OLD_ROOT
        classes = []
        rd.walk(path, name, set(), classes)
        if not classes:
            raise SystemExit("axolotl %s: no %s" % (tag, name))
        root = classes[-1][1]
        entry = class_entry(rd, classes, name, name, path, root.lineno)
        dep = deprecations(classes)
        for f in entry["fields"]:
            if f["name"] in dep:
                f["deprecated"] = True
                if dep[f["name"]]:
                    f["replacement"] = dep[f["name"]]
        # Plugins' args models join the root schema when the plugin is listed: each plugin's
        # get_input_args returns the dotted name of its model.
        pclasses = []
        for p in sorted(x for x in _ls(gitdir, tag, AXO_PLUGINS) if x.endswith(".py")):
            t = rd.tree(p)
            for fn in ast.walk(t) if t else []:
                if not (isinstance(fn, ast.FunctionDef) and fn.name == "get_input_args"):
                    continue
                for r in ast.walk(fn):
                    v = literal(r.value) if isinstance(r, ast.Return) and r.value is not None else None
                    if not isinstance(v, str) or "." not in v:
                        continue
                    mod, cname = v.rsplit(".", 1)
                    base = "src/" + mod.replace(".", "/")
                    for cand in (base + ".py", base + "/__init__.py"):
                        if rd.tree(cand) is not None:
                            rd.walk(cand, cname, set(), pclasses)
                            break
        # Rendered into the same section, before the core schema (whose facts win on a shared name).
        plug = class_entry(rd, pclasses, name, "plugins", AXO_PLUGINS, 0)
        entry_tag = {"tag": tag, "classes": [plug, entry], "extra": extra_policy(classes, path),
                     "checks": axo_checks(classes, None)}
        res.append(entry_tag)
    return {"framework": "axolotl", "tags": res}


def _ls(gitdir, tag, under):
    from extract import git
    return git(gitdir, "ls-tree", "-r", "--name-only", tag, under).decode().split()


def llamafactory(gitdir, tags):
    res = []
    for tag in tags:
        rd = Reader(gitdir, tag, None)
        entry = {"tag": tag, "classes": [], "extra": {"policy": "forbid", "file": "src/llamafactory/hparams/parser.py", "line": 0}}
        ptree = rd.tree("src/llamafactory/hparams/parser.py")
        for n in ast.walk(ptree):
            # parse_dict(args, allow_extra_keys=...) defaults to refusing; the line names the call.
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "parse_dict":
                entry["extra"]["line"] = n.lineno
                break
        post = []
        for path, name in LF_CLASSES:
            classes = []
            rd.walk(path, name, set(), classes)
            if not classes:
                continue
            if name in LF_TRAIN:
                post += post_inits(classes)
            entry["classes"].append(class_entry(rd, classes, "", name, path, classes[-1][1].lineno))
        entry["checks"] = lf_checks(entry, post, ptree)
        res.append(entry)
    return {"framework": "llamafactory", "tags": res}


# The classes get_train_args parses (parser.py _TRAIN_ARGS; EvaluationArguments is for `eval`).
LF_TRAIN = {"ModelArguments", "DataArguments", "TrainingArguments", "FinetuningArguments", "GeneratingArguments"}


def post_inits(classes):
    """The __post_init__ methods that run when the last class of classes (its MRO, bases first)
    is built: its own, or the first base's that has one, and those it calls by name
    (Base.__post_init__(self)); super() leads out of the package and is not followed."""
    by = {cls.name: (p, cls) for p, cls in classes}

    def own(name):
        p, cls = by[name]
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and fn.name == "__post_init__":
                return p, fn
        return None

    def first(name, depth=0):
        if name not in by or depth > 12:
            return None
        o = own(name)
        if o:
            return name, o
        for b in by[name][1].bases:
            if isinstance(b, ast.Name):
                r = first(b.id, depth + 1)
                if r:
                    return r
        return None

    out, todo, seen = [], [classes[-1][1].name], set()
    while todo:
        r = first(todo.pop(0))
        if r is None or r[0] in seen:
            continue
        seen.add(r[0])
        name, (p, fn) = r
        out.append((p, name + ".__post_init__", fn))
        for n in ast.walk(fn):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "__post_init__" \
                    and isinstance(n.func.value, ast.Name) and n.func.value.id in by:
                todo.append(n.func.value.id)
    return out


LF_ARGS = {"self", "model_args", "data_args", "finetuning_args", "generating_args", "training_args"}


def lf_checks(entry, classes, ptree):
    # classes: (file, name, function) of the __post_init__ methods that run (post_inits).
    """Refusals of LLaMA-Factory's argument dataclasses (__post_init__) and of parser.py's
    _verify_model_args and get_train_args whose conditions read only LLaMA-Factory's own fields
    (their defaults are known; the Trainer's are not read here). A check is dropped when any of
    these functions assigns a field its condition reads."""
    defaults = {}
    for c in entry["classes"]:
        for f in c["fields"]:
            d = f.get("default")
            v = NODEFAULT
            if d is not None and not d.endswith("()"):
                try:
                    v = ast.literal_eval(d)
                except Exception:
                    v = NODEFAULT
            defaults[f["name"]] = v

    def key_of(e):
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id in LF_ARGS \
                and e.attr in defaults and KEYRE.match(e.attr):
            return e.attr
        return None

    fns = list(classes)
    for n in ptree.body:
        if isinstance(n, ast.FunctionDef) and n.name in ("_verify_model_args", "get_train_args"):
            fns.append(("src/llamafactory/hparams/parser.py", n.name, n))
    assigned = set()
    for _, _, fn in fns:
        for n in ast.walk(fn):
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, (ast.Store, ast.Del)) \
                    and isinstance(n.value, ast.Name) and n.value.id in LF_ARGS:
                assigned.add(n.attr)
    out = []
    for path, name, fn in fns:
        scan(fn.body, key_of, defaults, assigned, name, path, out, [])
    return out


def main():
    fw, gitdir, tags = sys.argv[1], sys.argv[2], sys.argv[3:]
    out = {"axolotl": axolotl, "llamafactory": llamafactory}[fw](gitdir, tags)
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
