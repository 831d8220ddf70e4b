package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"
	"time"
)

// wheelFile is one member of a wheel.
type wheelFile struct {
	name string
	data []byte
	mode uint32 // Unix permission bits; 0755 for the binary, which pip keeps executable
}

// wheel describes one platform wheel of trainlint.
type wheel struct {
	version  string
	platform string // compressed platform tag set: "manylinux_2_17_x86_64.manylinux2014_x86_64"
	binary   []byte
	exe      string // "trainlint" or "trainlint.exe"
	license  []byte // the Apache-2.0 text, shipped in .dist-info
	modTime  time.Time
}

// fileName is {distribution}-{version}-{python tag}-{abi tag}-{platform tag}.whl. The binary
// does not load Python, so the interpreter tag is py3 and the ABI tag none: one wheel per
// platform serves every Python 3.
func (w *wheel) fileName() string {
	return fmt.Sprintf("%s-%s-py3-none-%s.whl", distName, w.version, w.platform)
}

// tags expands the compressed tag set into the Tag lines of the WHEEL file, one per
// combination.
func (w *wheel) tags() []string {
	var out []string
	for _, p := range strings.Split(w.platform, ".") {
		out = append(out, "py3-none-"+p)
	}
	return out
}

const distName = "trainlint"

// files lists the wheel's members, RECORD excepted, in archive order: the package and the
// scripts first, .dist-info last (the spec encourages it, so that a reader of the archive's end
// finds the metadata).
func (w *wheel) files() []wheelFile {
	data := distName + "-" + w.version + ".data"
	info := distName + "-" + w.version + ".dist-info"
	var wheelMeta strings.Builder
	fmt.Fprintf(&wheelMeta, "Wheel-Version: 1.0\nGenerator: trainlint-wheel (%s)\nRoot-Is-Purelib: false\n", w.version)
	for _, t := range w.tags() {
		fmt.Fprintf(&wheelMeta, "Tag: %s\n", t)
	}
	return []wheelFile{
		{name: "trainlint/__init__.py", data: []byte(pyInit), mode: 0o644},
		{name: "trainlint/__main__.py", data: []byte(pyMain), mode: 0o644},
		// Files under .data/scripts/ are installed into the environment's scripts folder
		// (bin/ or Scripts\): the binary itself becomes the `trainlint` command, with no
		// Python launcher in front of it (each pre-commit run saves the interpreter's start-up).
		{name: data + "/scripts/" + w.exe, data: w.binary, mode: 0o755},
		{name: info + "/METADATA", data: []byte(metadata(w.version)), mode: 0o644},
		{name: info + "/WHEEL", data: []byte(wheelMeta.String()), mode: 0o644},
		{name: info + "/LICENSE", data: w.license, mode: 0o644},
		{name: info + "/NOTICE", data: []byte(notice), mode: 0o644},
	}
}

// write writes the wheel to out. RECORD holds every member's sha256 (URL-safe base64 without
// padding, as the spec asks) and size, and lists itself without either.
func (w *wheel) write(out io.Writer) error {
	zw := zip.NewWriter(out)
	var record bytes.Buffer
	cw := csv.NewWriter(&record)
	add := func(f wheelFile) error {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: w.modTime}
		h.SetMode(fs.FileMode(f.mode))
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		_, err = fw.Write(f.data)
		return err
	}
	for _, f := range w.files() {
		if err := add(f); err != nil {
			return err
		}
		sum := sha256.Sum256(f.data)
		cw.Write([]string{f.name, "sha256=" + base64.RawURLEncoding.EncodeToString(sum[:]), fmt.Sprint(len(f.data))})
	}
	recordName := distName + "-" + w.version + ".dist-info/RECORD"
	cw.Write([]string{recordName, "", ""})
	cw.Flush()
	if err := add(wheelFile{name: recordName, data: record.Bytes(), mode: 0o644}); err != nil {
		return err
	}
	return zw.Close()
}

// pep440 matches the canonical public version forms we release (N.N.N with optional
// pre-release, post-release and dev parts); local versions (+...) are refused by PyPI.
var pep440 = regexp.MustCompile(`^[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?$`)

func metadata(version string) string {
	return fmt.Sprintf(`Metadata-Version: 2.1
Name: %s
Version: %s
Summary: Lint deep-learning training configs for the pitfalls of the Deep Learning Tuning Playbook
Home-page: https://github.com/trainlint/trainlint
License: Apache-2.0
Keywords: lint,training,config,deep-learning,yaml,pre-commit
Project-URL: Documentation, https://trainlint.github.io
Project-URL: Source, https://github.com/trainlint/trainlint
Classifier: Development Status :: 4 - Beta
Classifier: Environment :: Console
Classifier: Intended Audience :: Science/Research
Classifier: License :: OSI Approved :: Apache Software License
Classifier: Programming Language :: Go
Classifier: Topic :: Scientific/Engineering :: Artificial Intelligence
Classifier: Topic :: Software Development :: Quality Assurance
Requires-Python: >=3.7
Description-Content-Type: text/markdown

# trainlint

trainlint checks training configs (Hugging Face Trainer, TRL, axolotl, LLaMA-Factory,
Lightning, NeMo, DeepSpeed, torchtune, Composer, timm, MMEngine Python configs, T5X gin,
big_vision and scenic ml_collections, in-house YAML/JSON/TOML) for the pitfalls described in
the Deep Learning Tuning Playbook. Configs written as code are read, never run.

This wheel holds the trainlint binary for one platform; no Go toolchain is needed:

    pip install trainlint
    trainlint check configs/

Documentation: https://trainlint.github.io. The code is licensed under Apache-2.0; the rule
guidance is adapted from the Deep Learning Tuning Playbook (Godbole, Dahl, Gilmer, Shallue,
Nado; https://github.com/google-research/tuning_playbook) under CC BY 4.0, with no endorsement
by its authors or Google implied.
`, distName, version)
}

const notice = `trainlint
Copyright the trainlint authors. Licensed under the Apache License, Version 2.0 (see LICENSE).

The rule documentation and guidance built into trainlint are adapted (paraphrased and
modified) from the Deep Learning Tuning Playbook by Varun Godbole, George E. Dahl, Justin
Gilmer, Christopher J. Shallue and Zachary Nado
(https://github.com/google-research/tuning_playbook), licensed under CC BY 4.0
(https://creativecommons.org/licenses/by/4.0/). The original is provided as is, without
warranties. trainlint is not affiliated with or endorsed by the authors or Google.
`

// pyInit lets `python -m trainlint` and Python code find the installed binary.
const pyInit = `"""trainlint: the binary is installed as a script; this package only finds it."""

import os
import sys
import sysconfig


def find_trainlint_bin():
    """Return the path of the trainlint executable installed with this package."""
    exe = "trainlint" + (sysconfig.get_config_var("EXE") or "")
    candidates = [sysconfig.get_path("scripts")]
    user = "%s_user" % os.name
    if user in sysconfig.get_scheme_names():
        candidates.append(sysconfig.get_path("scripts", scheme=user))
    # pip install --target puts the scripts next to the package folder, under bin/.
    candidates.append(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bin"))
    for folder in candidates:
        path = os.path.join(folder, exe)
        if os.path.isfile(path):
            return path
    raise FileNotFoundError("the trainlint executable is not in " + ", ".join(candidates))
`

const pyMain = `import os
import subprocess
import sys

from trainlint import find_trainlint_bin


def main():
    path = find_trainlint_bin()
    if sys.platform == "win32":
        sys.exit(subprocess.call([path, *sys.argv[1:]]))
    os.execv(path, [path, *sys.argv[1:]])


if __name__ == "__main__":
    main()
`
