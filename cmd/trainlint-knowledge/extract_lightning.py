#!/usr/bin/env python3
"""Extract PyTorch Lightning knowledge from its source at release tags (generator only).

Reads Lightning-AI/pytorch-lightning's git directory with `git show TAG:path`, parses the Python
with the standard `ast` module and prints, for every tag:
  - the signatures of Trainer.__init__, ModelCheckpoint.__init__ and EarlyStopping.__init__:
    each parameter's name, annotation as written, annotation with the module's type aliases
    expanded (_PRECISION_INPUT -> Literal[...]), default and line;
  - the value sets the constructors test against (mode_dict of both callbacks,
    GradClipAlgorithmType);
  - every `raise` the constructors and the start-up helpers they call make, with the `if` test
    that guards it and the message, file and line: the checks a config can fail at start-up.

    extract_lightning.py GITDIR TAG... > testdata/lightning.json

main.go renders that JSON into lint/dialect/knowledge_lightning.tsv.

The 2.x tags keep the package at src/lightning/pytorch/ (with Fabric at src/lightning/fabric/);
the 1.x tags at pytorch_lightning/ (1.0.0-1.6.5) or src/pytorch_lightning/ (1.7.0-1.9.5): each
tag's package is found by the file that holds Trainer (roots). The 1.x helpers of the start-up
checks have other names or classes (DataConnector, not _DataConnector; no trainer/setup.py):
a function CHECKS names that a tag does not have is not read there, so its checks hold from the
first tag that has it, never before.

A signature's **kwargs is recorded ("kwargs"): a constructor that takes arbitrary keywords
refuses no unknown key. None of the three takes any at a tag read; Trainer.__init__ is wrapped at
1.x (@overwrite_by_env_vars at 1.0.0, pytorch_lightning/trainer/trainer.py:85, and
@_defaults_from_env_vars from 1.4 on: pytorch_lightning/trainer/trainer.py:105@1.4.9,
:128@1.6.5, src/pytorch_lightning/trainer/trainer.py:136@1.7.7, :119@1.9.5), and the wrapper
(pytorch_lightning/trainer/connectors/env_vars_connector.py:27-42@1.4.9,
src/pytorch_lightning/utilities/argparse.py:335-350@1.9.5) passes every keyword on to the
wrapped __init__ (`return fn(self, **kwargs)`), which refuses one it lacks; functools.wraps
keeps the signature LightningCLI reads. The decorators are recorded too ("decorators").
"""
import ast
import json
import re
import subprocess
import sys

PT = "src/lightning/pytorch/"
FAB = "src/lightning/fabric/"
# The package roots a tag may keep Lightning's Trainer under, newest layout first.
ROOTS = [(PT, FAB), ("src/pytorch_lightning/", None), ("pytorch_lightning/", None)]

SIGNATURES = [
    ("Trainer", PT + "trainer/trainer.py", "Trainer"),
    ("ModelCheckpoint", PT + "callbacks/model_checkpoint.py", "ModelCheckpoint"),
    ("EarlyStopping", PT + "callbacks/early_stopping.py", "EarlyStopping"),
]

# (section, file, class or "" for a module function, function): where construction-time checks live.
CHECKS = [
    ("Trainer", PT + "trainer/trainer.py", "Trainer", "__init__"),
    ("Trainer", PT + "trainer/setup.py", "", "_init_debugging_flags"),
    ("Trainer", PT + "trainer/setup.py", "", "_determine_batch_limits"),
    ("Trainer", PT + "trainer/setup.py", "", "_parse_time_interval_seconds"),
    ("Trainer", PT + "trainer/connectors/data_connector.py", "_DataConnector", "on_trainer_init"),
    ("Trainer", FAB + "connector.py", "", "_convert_precision_to_unified_args"),
    ("ModelCheckpoint", PT + "callbacks/model_checkpoint.py", "ModelCheckpoint", "__init__"),
    ("ModelCheckpoint", PT + "callbacks/model_checkpoint.py", "ModelCheckpoint", "__validate_init_configuration"),
    ("ModelCheckpoint", PT + "callbacks/model_checkpoint.py", "ModelCheckpoint", "__init_monitor_mode"),
    ("EarlyStopping", PT + "callbacks/early_stopping.py", "EarlyStopping", "__init__"),
    # 1.2.x: EarlyStopping refuses a mode in a method of its own; 1.3.0-1.4.9: the Trainer's
    # training-tricks connector refuses a gradient_clip_algorithm (later in Trainer.__init__)
    ("EarlyStopping", PT + "callbacks/early_stopping.py", "EarlyStopping", "__init_monitor_mode"),
    ("Trainer", PT + "trainer/connectors/training_trick_connector.py", "TrainingTricksConnector", "on_trainer_init"),
]


_roots = {}


def roots(gitdir, tag):
    """The tag's (pytorch package, fabric package or None) folders."""
    if tag not in _roots:
        _roots[tag] = next(((pt, fab) for pt, fab in ROOTS if show(gitdir, tag, pt + "trainer/trainer.py") is not None),
                           (PT, FAB))
    return _roots[tag]


def at(gitdir, tag, path):
    """path (written for the 2.x layout) in the tag's layout; None when the tag has no such package."""
    pt, fab = roots(gitdir, tag)
    if path.startswith(PT):
        return pt + path[len(PT):]
    if path.startswith(FAB):
        return fab + path[len(FAB):] if fab else None
    return path


def show(gitdir, tag, path):
    try:
        return subprocess.run(["git", "--git-dir=" + gitdir, "show", tag + ":" + path], check=True,
                              capture_output=True).stdout.decode()
    except subprocess.CalledProcessError:
        return None


_trees = {}


def tree(gitdir, tag, path):
    k = (tag, path)
    if k not in _trees:
        text = show(gitdir, tag, path)
        _trees[k] = ast.parse(text) if text is not None else None
    return _trees[k]


def module_file(gitdir, tag, module):
    """The file of an absolute lightning.* or pytorch_lightning.* module (a package's __init__.py),
    under src/ or at the root (1.0.0-1.6.5)."""
    for base in ("src/" + module.replace(".", "/"), module.replace(".", "/")):
        for p in (base + ".py", base + "/__init__.py"):
            if tree(gitdir, tag, p) is not None:
                return p
    return None


def alias(gitdir, tag, path, name, depth=0):
    """The expression a module-level name of path stands for, following `from X import name`."""
    t = tree(gitdir, tag, path)
    if t is None or depth > 6:
        return None, None
    for st in t.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                and st.targets[0].id == name:
            return st.value, path
        if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == name and st.value is not None:
            return st.value, path
    for st in ast.walk(t):
        if isinstance(st, ast.ImportFrom) and st.level == 0 and st.module and (st.module.startswith("lightning") or st.module.startswith("pytorch_lightning")) \
                and any(a.name == name and a.asname is None for a in st.names):
            f = module_file(gitdir, tag, st.module)
            if f:
                return alias(gitdir, tag, f, name, depth + 1)
    return None, None


class Expand(ast.NodeTransformer):
    """Replaces private type aliases (_PRECISION_INPUT, _LITERAL_WARN) by what they stand for."""

    def __init__(self, gitdir, tag, path, depth=0):
        self.gitdir, self.tag, self.path, self.depth = gitdir, tag, path, depth

    def visit_Name(self, node):
        if re.fullmatch(r"_[A-Z][A-Z0-9_]*", node.id):
            v, p = alias(self.gitdir, self.tag, self.path, node.id)
            if v is not None and self.depth < 6 and isinstance(v, (ast.Subscript, ast.Name, ast.BinOp)):
                return Expand(self.gitdir, self.tag, p, self.depth + 1).visit(ast.parse(ast.unparse(v), mode="eval").body)
        return node


def find(t, cls, fn):
    body = t.body
    if cls:
        c = next((n for n in t.body if isinstance(n, ast.ClassDef) and n.name == cls), None)
        if c is None:
            return None, None
        body = c.body
        if fn is None:
            return c, None
    else:
        c = None
    f = next((n for n in body if isinstance(n, ast.FunctionDef) and n.name == fn), None)
    return c, f


def signature(gitdir, tag, path, cls):
    path = at(gitdir, tag, path)
    t = tree(gitdir, tag, path) if path else None
    if t is None:
        return None
    c, f = find(t, cls, "__init__")
    if f is None:
        return None
    a = f.args
    params = []
    pos = a.args[1:]  # self
    pdefs = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    for arg, d in list(zip(pos, pdefs)) + list(zip(a.kwonlyargs, a.kw_defaults)):
        p = {"name": arg.arg, "line": arg.lineno}
        if arg.annotation is not None:
            p["annotation"] = ast.unparse(arg.annotation)
            x = ast.unparse(Expand(gitdir, tag, path).visit(ast.parse(p["annotation"], mode="eval").body))
            if x != p["annotation"]:
                p["expanded"] = x
        if d is not None:
            p["default"] = ast.unparse(d)
        else:
            p["required"] = True
        params.append(p)
    out = {"class": cls, "file": path, "line": f.lineno, "params": params,
           "decorators": [ast.unparse(d) for d in f.decorator_list]}
    if a.kwarg is not None:
        out["kwargs"] = a.kwarg.arg
    return out


def enums(gitdir, tag):
    out = []

    def dict_keys(d):
        return [k.value for k in d.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]

    def mode_dict(section, path, nodes):
        """The keys of a `mode_dict = {...}` assignment among nodes: the modes the callback accepts."""
        for n in nodes:
            if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and n.targets[0].id == "mode_dict" \
                    and isinstance(n.value, ast.Dict):
                out.append({"section": section, "name": "mode", "values": dict_keys(n.value),
                            "file": path, "line": n.lineno})

    # ModelCheckpoint.__init_monitor_mode: mode_dict = {"min": ..., "max": ...}
    p = at(gitdir, tag, PT + "callbacks/model_checkpoint.py")
    t = tree(gitdir, tag, p)
    _, f = find(t, "ModelCheckpoint", "__init_monitor_mode") if t is not None else (None, None)
    mode_dict("ModelCheckpoint", p, ast.walk(f) if f else [])
    # EarlyStopping.mode_dict (class attribute).
    p = at(gitdir, tag, PT + "callbacks/early_stopping.py")
    t = tree(gitdir, tag, p)
    c, _ = find(t, "EarlyStopping", None) if t is not None else (None, None)
    mode_dict("EarlyStopping", p, c.body if c else [])
    # GradClipAlgorithmType: the Trainer lower-cases gradient_clip_algorithm and tests membership.
    p = at(gitdir, tag, PT + "utilities/enums.py")
    t = tree(gitdir, tag, p)
    c, _ = find(t, "GradClipAlgorithmType", None) if t is not None else (None, None)
    if c is not None:
        vals = [n.value.value for n in c.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
                and isinstance(n.value.value, str)]
        out.append({"section": "Trainer", "name": "gradient_clip_algorithm", "values": vals, "file": p,
                    "line": c.lineno, "fold": "lower"})
    return out


def raises(node, test_stack, out, section, path):
    """Every raise under node with the if tests that guard it (innermost last)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If):
            for st in child.body:
                raises_in(st, test_stack + [ast.unparse(child.test)], out, section, path)
            for st in child.orelse:
                raises_in(st, test_stack + ["not (" + ast.unparse(child.test) + ")"], out, section, path)
        elif isinstance(child, (ast.FunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        else:
            raises_in(child, test_stack, out, section, path)


def raises_in(st, test_stack, out, section, path):
    if isinstance(st, ast.Raise) and st.exc is not None:
        exc = st.exc
        msg = ""
        kind = ast.unparse(exc.func) if isinstance(exc, ast.Call) else ast.unparse(exc)
        if isinstance(exc, ast.Call) and exc.args:
            msg = ast.unparse(exc.args[0])
        out.append({"section": section, "test": " and ".join(test_stack) if test_stack else "", "exception": kind,
                    "message": msg, "file": path, "line": st.lineno})
        return
    if isinstance(st, ast.If):
        raises(ast.Module(body=[st], type_ignores=[]), test_stack, out, section, path)
        return
    raises(st, test_stack, out, section, path)


def checks(gitdir, tag):
    out = []
    for section, path, cls, fn in CHECKS:
        path = at(gitdir, tag, path)
        t = tree(gitdir, tag, path) if path else None
        if t is None:
            continue
        _, f = find(t, cls, fn)
        if f is None:
            continue
        found = []
        raises(f, [], found, section, path)
        for r in found:
            r["function"] = (cls + "." if cls else "") + fn
        out.extend(found)
    return out


def main():
    gitdir, tags = sys.argv[1], sys.argv[2:]
    res = []
    for tag in tags:
        entry = {"tag": tag, "signatures": [], "enums": enums(gitdir, tag), "checks": checks(gitdir, tag)}
        for section, path, cls in SIGNATURES:
            s = signature(gitdir, tag, path, cls)
            if s is not None:
                s["section"] = section
                entry["signatures"].append(s)
        res.append(entry)
    json.dump({"framework": "lightning", "tags": res}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
