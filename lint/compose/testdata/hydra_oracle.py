"""Regenerates the Hydra verdicts in this folder from Hydra itself (trainlint's own script).

Hydra cannot be pip-installed here; its source can be read at a release tag and its override
grammar generated with Debian's antlr4 (package antlr4; the runtime is python3-antlr4, which
OmegaConf needs anyway):

    git archive v1.3.2 hydra | tar -x -C SRC      # from a clone of facebookresearch/hydra
    cd SRC && for g in OverrideLexer OverrideParser; do
      antlr4 -Dlanguage=Python3 -o hydra/grammar/gen/ -Xexact-output-dir -visitor hydra/grammar/$g.g4
    done
    apt-get install python3-packaging python3-omegaconf

Then, with Debian's /usr/bin/python3:

    hydra_oracle.py SRC values < inputs.jsonl   # a JSON string a line: override values
    hydra_oracle.py SRC keys < inputs.jsonl     # a JSON string a line: whole overrides
    hydra_oracle.py SRC runs TREE < runs.tsv    # PRIMARY<TAB>OVERRIDES (space-separated)

values prints {"in", "hydra"} lines (hydra-override-values.jsonl: "refused", "sweep" or the
typed value), keys prints {"override", "hydra"} lines (hydra-override-keys.jsonl: "ok" or
"refused"), runs prints the lines of hydra-lht-runs.tsv (a SHA-256 of the composed config in
the encoding of hydracompose_oracle_test.go, or "refused" and Hydra's error). The committed
files are samples of such outputs on generated inputs (see the tests).
"""
import contextlib, hashlib, io, json, math, os, struct, sys

sys.path.insert(0, sys.argv[1])
from hydra.core.override_parser.overrides_parser import OverridesParser  # noqa: E402
from hydra.core.override_parser.types import ValueType  # noqa: E402

parser = OverridesParser.create()


def quiet(f, *a, **k):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return f(*a, **k)


def typed(v):
    if v is None:
        return ["null"]
    if isinstance(v, bool):
        return ["bool", "true" if v else "false"]
    if isinstance(v, int):
        return ["int", str(v)]
    if isinstance(v, float):
        if math.isnan(v):
            return ["float", "nan"]
        if math.isinf(v):
            return ["float", "inf" if v > 0 else "-inf"]
        return ["float", repr(v)]
    if isinstance(v, str):
        return ["str", v]
    if isinstance(v, list):
        return ["list", [typed(x) for x in v]]
    if isinstance(v, dict):
        return ["dict", [[typed(k), typed(x)] for k, x in v.items()]]
    raise TypeError(type(v))


def values():
    for line in sys.stdin:
        s = json.loads(line)
        try:
            o = quiet(parser.parse_override, "k=" + s)
        except Exception:
            verdict = "refused"
        else:
            verdict = "sweep" if o.value_type != ValueType.ELEMENT else typed(o.value())
        print(json.dumps({"in": s, "hydra": verdict}, ensure_ascii=False))


def keys():
    for line in sys.stdin:
        s = json.loads(line)
        try:
            quiet(parser.parse_override, s)
            verdict = "ok"
        except Exception:
            verdict = "refused"
        print(json.dumps({"override": s, "hydra": verdict}, ensure_ascii=False))


def canon(v, out):
    if v is None:
        out.append(b"n")
    elif v is True or v is False:
        out.append(b"t" if v else b"f")
    elif isinstance(v, int):
        out.append(b"i%d;" % v)
    elif isinstance(v, float):
        out.append(b"d%d;" % struct.unpack("<Q", struct.pack("<d", v))[0])
    elif isinstance(v, str):
        b = v.encode()
        out.append(b"s%d:" % len(b) + b)
    elif isinstance(v, list):
        out.append(b"[")
        for x in v:
            canon(x, out)
        out.append(b"]")
    elif isinstance(v, dict):
        out.append(b"{")
        for k in sorted(v, key=lambda k: str(k).encode()):
            canon(str(k), out)
            canon(v[k], out)
        out.append(b"}")
    else:
        raise TypeError(type(v))


def runs(tree):
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    # hydra.searchpath: pkg:// entries import from the tree, relative file:// ones are read
    # from the working folder (the tree, as a launch from the repository's top).
    os.chdir(tree)
    sys.path.insert(0, tree)
    for line in sys.stdin:
        primary, ovs = line.rstrip("\n").split("\t")
        folder, name = primary.rsplit("/", 1)

        def one():
            with initialize_config_dir(config_dir=tree + "/" + folder, version_base=None):
                cfg = compose(config_name=name[: -len(".yaml")], overrides=ovs.split(" ") if ovs else [])
            return OmegaConf.to_container(cfg, resolve=False)

        try:
            c = quiet(one)
        except Exception as e:
            print(primary + "\t" + ovs + "\trefused " + type(e).__name__ + ": " + str(e).splitlines()[0][:120])
            continue
        c.pop("hydra", None)
        out = []
        canon(c, out)
        print(primary + "\t" + ovs + "\t" + hashlib.sha256(b"".join(out)).hexdigest())


{"values": values, "keys": keys, "runs": lambda: runs(sys.argv[3])}[sys.argv[2]]()
