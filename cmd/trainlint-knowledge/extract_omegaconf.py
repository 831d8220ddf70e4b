#!/usr/bin/env python3
"""Read the configuration dataclasses of frameworks that check an OmegaConf file against them
(NeMo's exp_manager, llm-foundry's TrainConfig) at release tags (generator only).

nemo-toolkit (NeMo on PyPI: nemo_toolkit):

exp_manager() (nemo/utils/exp_manager.py) builds OmegaConf.structured(ExpManagerConfig) and
merges the file's exp_manager: section into it; a structured config is in struct mode, so a key
the dataclass does not declare stops the job at start-up, at every level whose field is typed
with a dataclass (CallbackParams, EarlyStoppingParams, ...). Fields typed Dict stay open.

    python3 extract_omegaconf.py nemo-toolkit GITDIR v1.20.0 ... v2.5.0rc0 > testdata/nemo.json

llm-foundry: make_dataclass_and_log_config (llmfoundry/utils/config_utils.py, from v0.10.0)
raises "Unused parameter(s) ... found in cfg" for every top-level key of the train YAML that is
not a TrainConfig field (after its transforms, which only add fields); nested sections are dicts.
The eval script makes the same check against EvalConfig's fields, after a transform that (from
v0.11.0) moves a top-level model, tokenizer, model_name and load_path into the models list.

    python3 extract_omegaconf.py llm-foundry GITDIR v0.10.0 ... v0.21.0 > testdata/llm-foundry.json

Each class is written as its own section, named by the class; a field typed with one of the
classes read is listed with "type" so that the dialect can map config paths to sections.
"""
import ast
import json
import subprocess
import sys

FILE = "nemo/utils/exp_manager.py"
LOGGERS = {
    "MLFlowParams": "nemo/utils/loggers/mlflow_logger.py",
    "DLLoggerParams": "nemo/utils/loggers/dllogger.py",
    "ClearMLParams": "nemo/utils/loggers/clearml_logger.py",
}


def show(gitdir, tag, path):
    r = subprocess.run(["git", "--git-dir", gitdir, "show", f"{tag}:{path}"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def dataclasses(src):
    out = {}
    for node in ast.parse(src).body:
        if not isinstance(node, ast.ClassDef):
            continue
        if not any(ast.unparse(d).split("(")[0].endswith("dataclass") for d in node.decorator_list):
            continue
        fields = []
        for st in node.body:
            if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                fields.append((st.target.id, st.lineno, ast.unparse(st.annotation),
                               ast.unparse(st.value) if st.value is not None else ""))
        out[node.name] = fields
    return out


def default_of(value):
    # field(default_factory=X) is the dataclass X's defaults: written as "X()".
    if value.startswith("field("):
        call = ast.parse(value, mode="eval").body
        for kw in call.keywords:
            if kw.arg == "default_factory":
                f = ast.unparse(kw.value)
                if f.startswith("lambda:"):
                    return f[len("lambda:"):].strip()
                return f + "()"
            if kw.arg == "default":
                return ast.unparse(kw.value)
    return value


# The eval script: scripts/eval/eval.py up to v0.10, llmfoundry/command_utils/eval.py after.
FOUNDRY_EVAL = ["llmfoundry/command_utils/eval.py", "scripts/eval/eval.py"]


def toplevel_transform(gitdir, tag):
    """The keys allow_toplevel_keys (the eval script's transform, from v0.11.0) takes from the
    top of the file into its models list when the file has a top-level model: the string keys
    it pops, as a pseudo-class "EvalConfig@toplevel"."""
    for path in FOUNDRY_EVAL:
        src = show(gitdir, tag, path)
        if src is None:
            continue
        for node in ast.parse(src).body:
            if not (isinstance(node, ast.FunctionDef) and node.name == "allow_toplevel_keys"):
                continue
            fields, seen = [], set()
            for n in ast.walk(node):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "pop" \
                        and n.args and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str) \
                        and n.args[0].value not in seen:
                    seen.add(n.args[0].value)
                    fields.append({"name": n.args[0].value, "line": n.lineno, "default": "", "type": ""})
            fields.sort(key=lambda f: f["line"])
            return {"class": "EvalConfig@toplevel", "file": path, "fields": fields}
    return None


def eval_requires_icl_tasks(gitdir, tag):
    """The eval script's make_dataclass_and_log_config(..., icl_tasks_required=True) makes a
    file without icl_tasks stop ("icl_tasks must be specified in the config"): a pseudo-class
    "EvalConfig@required" with that field, at the tags that pass True."""
    for path in FOUNDRY_EVAL:
        src = show(gitdir, tag, path)
        if src is None:
            continue
        for n in ast.walk(ast.parse(src)):
            if isinstance(n, ast.Call) and ast.unparse(n.func) == "make_dataclass_and_log_config":
                for k in n.keywords:
                    if k.arg == "icl_tasks_required" and isinstance(k.value, ast.Constant) and k.value.value is True:
                        return {"class": "EvalConfig@required", "file": path,
                                "fields": [{"name": "icl_tasks", "line": k.value.lineno, "default": "", "type": ""}]}
        return None
    return None


def read_foundry(gitdir, tag):
    path = "llmfoundry/utils/config_utils.py"
    src = show(gitdir, tag, path)
    classes = []
    # TrainConfig (the train script's) and EvalConfig (the eval script's: the same
    # make_dataclass_and_log_config check against EVAL_CONFIG_KEYS).
    for name in ("TrainConfig", "EvalConfig"):
        fs = dataclasses(src)[name]
        fields = [{"name": n, "line": l, "default": default_of(v), "type": a} for n, l, a, v in fs]
        classes.append({"class": name, "file": path, "fields": fields})
    for t in (toplevel_transform(gitdir, tag), eval_requires_icl_tasks(gitdir, tag)):
        if t is not None:
            classes.append(t)
    line = next(i for i, l in enumerate(src.splitlines(), 1) if "extraneous_keys = " in l)
    return {"tag": tag, "classes": classes, "extra": {"policy": "forbid", "file": path, "line": line}}


def read(gitdir, tag):
    src = show(gitdir, tag, FILE)
    classes = {name: (FILE, fs) for name, fs in dataclasses(src).items()}
    for name, path in LOGGERS.items():
        s = show(gitdir, tag, path)
        if s is not None:
            for n, fs in dataclasses(s).items():
                if n == name:
                    classes[n] = (path, fs)
    # Only ExpManagerConfig and the dataclasses its fields name (recursively).
    keep, todo = [], ["ExpManagerConfig"]
    while todo:
        c = todo.pop(0)
        if c in keep or c not in classes:
            continue
        keep.append(c)
        for _, _, ann, _ in classes[c][1]:
            for other in classes:
                if other != c and other in ann.replace("[", " ").replace("]", " ").replace(",", " ").split():
                    todo.append(other)
    out = []
    for c in keep:
        path, fs = classes[c]
        fields = []
        for name, line, ann, value in fs:
            f = {"name": name, "line": line, "default": default_of(value), "type": ann}
            fields.append(f)
        out.append({"class": c, "file": path, "fields": fields})
    line = next(i for i, l in enumerate(src.splitlines(), 1) if "OmegaConf.merge(schema" in l)
    return {"tag": tag, "classes": out, "extra": {"policy": "forbid", "file": FILE, "line": line}}


def main():
    fw, gitdir, tags = sys.argv[1], sys.argv[2], sys.argv[3:]
    reader = {"nemo-toolkit": read, "llm-foundry": read_foundry}[fw]
    json.dump({"framework": fw, "tags": [reader(gitdir, t) for t in tags]}, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
