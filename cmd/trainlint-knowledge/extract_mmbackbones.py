#!/usr/bin/env python3
"""Read the batch-norm defaults of an OpenMMLab project's registered backbones (generator only;
never run at lint time).

A config names a backbone by its registry name (`backbone=dict(type='ResNet', depth=50)`), and
the Runner builds the class registered under that name in the config's default_scope, calling it
with the dict's other keys as keyword arguments. What the config leaves out takes the class's
defaults: norm_cfg (which normalisation layer the backbone builds) and norm_eval (whether its
batch-norm layers are kept in eval mode while training, their statistics frozen).

For every class in <package>/models/backbones/*.py whose decorators call register_module, this
reads the defaults of norm_cfg and norm_eval in its __init__. A class that does not declare one
and whose __init__ passes **kwargs to super().__init__ (ResNetV1c(ResNet)), or that has no
__init__, takes its base's: a keyword the super call passes itself wins; a base class defined
outside the backbones folder is not followed, and the field is then left out (unknown). Defaults
are kept as the source writes them ("dict(type='BN', requires_grad=True)", "False").

    extract_mmbackbones.py mmpretrain GITDIR v1.0.2 v1.1.1 v1.2.0 > testdata/mmpretrain.json

The first argument is the project's registry scope (its configs' default_scope: mmpretrain,
mmpose, mmaction for MMAction2; mmpose0 for MMPose 0.x, whose configs have none); GITDIR is its
git directory (open-mmlab/mmpretrain's).
"""
import ast
import json
import subprocess
import sys

FIELDS = ("norm_cfg", "norm_eval")


def git(gitdir, *args):
    r = subprocess.run(["git", "--git-dir=" + gitdir] + list(args), capture_output=True)
    return r.stdout.decode() if r.returncode == 0 else None


def registered(cls):
    for d in cls.decorator_list:
        if isinstance(d, ast.Call):
            d = d.func
        if isinstance(d, ast.Attribute) and d.attr == "register_module":
            return True
    return False


class Info:
    def __init__(self, node, path, src):
        self.node, self.path, self.src = node, path, src
        self.bases = [b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else None
                      for b in node.bases]
        self.init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)


def params(fn):
    """The keyword defaults of fn: name -> default node."""
    a = fn.args
    out = {}
    pos = a.posonlyargs + a.args
    for p, d in zip(pos[len(pos) - len(a.defaults):], a.defaults):
        out[p.arg] = d
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        if d is not None:
            out[p.arg] = d
    return out


def super_call(fn):
    """The super().__init__(...) call of fn, if any."""
    for n in ast.walk(fn):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "__init__"
                and isinstance(n.func.value, ast.Call) and isinstance(n.func.value.func, ast.Name)
                and n.func.value.func.id == "super"):
            return n
    return None


def resolve(classes, name, field, seen=()):
    """(default source, file, line) of field for class name, or None when unknown."""
    c = classes.get(name)
    if c is None or name in seen:
        return None
    seen = seen + (name,)
    if c.init is not None:
        ps = params(c.init)
        if field in ps:
            d = ps[field]
            return ast.get_source_segment(c.src, d), c.path, d.lineno
        if c.init.args.kwarg is None:
            return None  # the class takes no such keyword: not followed
        call = super_call(c.init)
        if call is None or not any(k.arg is None for k in call.keywords):
            return None  # **kwargs not passed on to the base
        for k in call.keywords:
            if k.arg == field:
                return ast.get_source_segment(c.src, k.value), c.path, k.value.lineno
    if not c.bases or c.bases[0] is None:
        return None
    return resolve(classes, c.bases[0], field, seen)


def extract(gitdir, tag, package):
    folder = package + "/models/backbones/"
    files = [p for p in (git(gitdir, "ls-tree", "-r", "--name-only", tag, folder) or "").split() if p.endswith(".py")]
    classes = {}
    for p in files:
        src = git(gitdir, "show", tag + ":" + p) or ""
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        for n in tree.body:
            if isinstance(n, ast.ClassDef):
                classes[n.name] = Info(n, p, src)
    out = []
    for name in sorted(classes):
        c = classes[name]
        if not registered(c.node):
            continue
        fields = []
        for f in FIELDS:
            r = resolve(classes, name, f)
            if r is not None:
                fields.append({"name": f, "default": r[0], "file": r[1], "line": r[2]})
        out.append({"class": name, "file": c.path, "line": c.node.lineno, "fields": fields})
    return {"tag": tag, "classes": out}


def main():
    framework, gitdir, tags = sys.argv[1], sys.argv[2], sys.argv[3:]
    package = {"mmpretrain": "mmpretrain", "mmpose": "mmpose", "mmaction": "mmaction", "mmpose0": "mmpose",
               "mmselfsup": "mmselfsup"}[framework]
    json.dump({"framework": framework, "tags": [extract(gitdir, t, package) for t in tags]},
              sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
