#!/usr/bin/env python3
"""Read the signatures of the torchtune builders a recipe config names in `_component_` (generator
only; never run at lint time).

torchtune's config.instantiate (torchtune/config/_instantiate.py) imports the `_component_` path
and calls it with the node's other keys as keyword arguments (`_component_(*args, **kwargs)`),
merged with what the recipe passes itself; a key the callable does not take is a TypeError when
the recipe starts. Only callables without **kwargs are closed: a dataset builder that forwards
**load_dataset_kwargs to datasets.load_dataset, or a logger that takes **kwargs, stays open and is
not written out.

The components read are the torchtune.* `_component_` paths named by the config files given
with --configs, or without it (as the committed table is made) every one named by torchtune's
own configs (recipes/configs/**.yaml) at the tag; each is resolved
through the package's imports to the def (a function's parameters), the class (its __init__'s),
or a functools.partial of one (its parameters less those the partial binds).

    extract_torchtune.py GITDIR v0.4.0 v0.5.0 v0.6.0 v0.6.1 bd2a0fc=v0.7.0-bd2a0fc > testdata/torchtune.json

A REV=NAME argument reads a commit under a tag-like name (main after 0.6.1 says 0.7.0 in
version.txt and has no release tag).
"""
import ast
import json
import re
import subprocess
import sys


def git(gitdir, *args):
    r = subprocess.run(["git", "--git-dir=" + gitdir] + list(args), capture_output=True)
    return r.stdout.decode() if r.returncode == 0 else None


COMPONENT = re.compile(r"_component_:\s*['\"]?(torchtune\.[A-Za-z0-9_.]+)")


def components(gitdir, rev):
    files = [p for p in git(gitdir, "ls-tree", "-r", "--name-only", rev, "recipes/configs/").split()
             if p.endswith(".yaml")]
    out = set()
    for p in files:
        text = git(gitdir, "show", rev + ":" + p) or ""
        out.update(COMPONENT.findall(text))
    return sorted(out)


class Resolver:
    def __init__(self, gitdir, rev):
        self.gitdir, self.rev, self.trees = gitdir, rev, {}

    def module(self, dotted):
        """(path, tree) of a module: a.b.c is a/b/c.py or a/b/c/__init__.py."""
        base = dotted.replace(".", "/")
        for path in (base + ".py", base + "/__init__.py"):
            if path not in self.trees:
                text = git(self.gitdir, "show", self.rev + ":" + path)
                self.trees[path] = ast.parse(text) if text is not None else None
            if self.trees[path] is not None:
                return path, self.trees[path]
        return None, None

    def find(self, dotted, name, depth=0):
        """The definition of name in module dotted: (path, node), following imports."""
        path, tree = self.module(dotted)
        if tree is None or depth > 8:
            return None, None
        for st in tree.body:
            if isinstance(st, (ast.FunctionDef, ast.ClassDef)) and st.name == name:
                return path, st
            if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in st.targets):
                return path, st
        for st in tree.body:
            if isinstance(st, ast.ImportFrom):
                for a in st.names:
                    if (a.asname or a.name) == name:
                        mod = st.module or ""
                        if st.level:
                            pkg = dotted.split(".") if path.endswith("__init__.py") else dotted.split(".")[:-1]
                            if st.level > 1:
                                pkg = pkg[:-(st.level - 1)]
                            mod = ".".join(pkg + ([mod] if mod else []))
                        if not mod.startswith("torchtune"):
                            return None, None
                        return self.find(mod, a.name, depth + 1)
        return None, None

    def signature(self, dotted, name, depth=0):
        """Parameters of a callable: a list of {name, line, default} and whether it takes
        **kwargs; None when it cannot be told (a class without __init__, a partial of something
        unresolved, any other assignment)."""
        path, node = self.find(dotted, name)
        if node is None or depth > 4:
            return None
        mod = module_of(path)
        if isinstance(node, ast.ClassDef):
            init = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
            if init is None:
                return None
            return dict(params(init, path, skip_self=True), callee=node.name + ".__init__()")
        if isinstance(node, ast.FunctionDef):
            return dict(params(node, path, skip_self=False), callee=node.name + "()")
        v = node.value
        if isinstance(v, ast.Name):  # an alias: llama3_3_70b = llama3_1_70b
            return self.signature(mod, v.id, depth + 1)
        if isinstance(v, ast.Call) and ast.unparse(v.func) in ("partial", "functools.partial") and v.args \
                and isinstance(v.args[0], ast.Name):
            base = self.signature(mod, v.args[0].id, depth + 1)
            if base is None:
                return None
            bound = {k.arg for k in v.keywords}
            ps = [p for p in base["params"] if p["name"] not in bound]
            return {"params": ps, "kwargs": base["kwargs"], "file": base["file"], "line": node.lineno,
                    "callee": base["callee"]}
        return None


def module_of(path):
    p = path[:-len("/__init__.py")] if path.endswith("/__init__.py") else path[:-len(".py")]
    return p.replace("/", ".")


def params(fn, path, skip_self):
    a = fn.args
    pos = a.posonlyargs + a.args
    if skip_self and pos:
        pos = pos[1:]
    out = []
    defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    for p, d in zip(pos, defaults):
        if p in a.posonlyargs:
            continue  # not passable by keyword
        out.append({"name": p.arg, "line": p.lineno, "default": "@required" if d is None else ast.unparse(d)})
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append({"name": p.arg, "line": p.lineno, "default": "@required" if d is None else ast.unparse(d),
                    "kwonly": True})
    return {"params": out, "kwargs": a.kwarg is not None, "file": path, "line": fn.lineno}


def read(gitdir, rev, name, names=None):
    r = Resolver(gitdir, rev)
    classes = []
    for comp in (sorted(names) if names is not None else components(gitdir, rev)):
        mod, _, fn = comp.rpartition(".")
        sig = r.signature(mod, fn)
        if sig is None or sig["kwargs"]:
            continue  # open, or not told: the dialect leaves it unchecked
        # A required parameter's row says what Python says when the call lacks it (TypeError:
        # "lora_llama3_1_8b() missing 1 required positional argument: 'lora_attn_modules'").
        fields = []
        for p in sig["params"]:
            f = {"name": p["name"], "line": p["line"], "default": p["default"], "file": sig["file"]}
            if p["default"] == "@required":
                kind = "keyword-only" if p.get("kwonly") else "positional"
                f["callee"] = "%s missing 1 required %s argument: '%s'" % (sig["callee"], kind, p["name"])
            fields.append(f)
        classes.append({"class": comp, "file": sig["file"], "line": sig["line"], "fields": fields})
    return {"tag": name, "classes": classes}


def main():
    args, names = sys.argv[1:], None
    if args and args[0] == "--configs":
        end = args.index("--")
        names = set()
        for path in args[1:end]:
            with open(path) as f:
                names.update(COMPONENT.findall(f.read()))
        args = args[end + 1:]
    gitdir, revs = args[0], args[1:]
    tags = []
    for r in revs:
        rev, _, name = r.partition("=")
        tags.append(read(gitdir, rev, name or rev, names))
    json.dump({"framework": "torchtune", "tags": tags}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
