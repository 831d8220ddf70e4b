package dialect

import (
	"path"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// remoteSchemes are URL schemes of storage that is read over the network.
var remoteSchemes = []string{"s3://", "s3a://", "gs://", "gcs://", "hdfs://", "http://", "https://", "az://", "abfs://", "abfss://", "oss://", "r2://", "ais://"}

// remoteURL reports whether s is a URL of remote storage.
func remoteURL(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, p := range remoteSchemes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// firstRemote returns the first scalar under n (n itself, or the items of a sequence) that is a
// remote URL, with its node.
func firstRemote(n *doc.Node) (string, *doc.Node) {
	if n == nil {
		return "", nil
	}
	if n.IsScalar() {
		if s, ok := strValue(n); ok && remoteURL(s) {
			return s, n
		}
		return "", nil
	}
	if n.Kind == doc.Seq {
		for _, c := range n.Children {
			if s, at := firstRemote(c); at != nil {
				return s, at
			}
		}
	}
	return "", nil
}

// cacheKeys are sibling keys that stage or cache remote data on local storage.
var cacheKeys = []string{"cache_dir", "local", "local_dir", "local_path", "cache", "cache_path", "staging_dir", "download_dir", "local_cache"}

// stagedLocally reports whether the map holding a data path also names a local cache.
func stagedLocally(parent *doc.Node) bool {
	if !isMap(parent) {
		return false
	}
	for _, k := range cacheKeys {
		if c := parent.Get(k); c != nil && !c.IsNull() {
			return true
		}
	}
	return false
}

// readGenericRemote: a training-data path (in a data section, or a train_* key at the top)
// that is a remote URL, with no local cache named beside it.
func readGenericRemote(p *plan.Plan, g genericReader) {
	n, _ := g.find(nil, true, "train_data", "train_data_path", "train_path", "train_files", "train_file", "train_urls", "train_url", "train_data_dir")
	if n == nil {
		n, _ = g.find(genDataSections, false, "train_data", "train_path", "train_files", "train_urls", "path", "paths", "data_path", "dataset_path", "data_dir", "urls", "url")
	}
	if n == nil {
		return
	}
	u, at := firstRemote(n)
	if at == nil || stagedLocally(n.Parent) || levanterSource(n) || allennlpSource(n) || wholeFileURL(u) && !streamed(n.Parent) {
		return
	}
	p.Data.Remote = plan.Set(u, genPathOf(at), at)
}

// wholeFiles are the extensions of files that are read whole: a table, an archive, an array
// or a pickle is downloaded or loaded into memory before the first batch, never read batch by
// batch from the server. A .tar is not here, nor a compressed tar named as a shard
// (shardName): webdataset streams its shards, .tar and .tgz alike (tar_file_iterator opens
// them with mode "r|*"), while one archive (imagenette2-160.tgz, cifar-10-python.tar.gz) is
// downloaded and unpacked.
var wholeFiles = []string{".csv", ".tsv", ".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".npz", ".npy", ".pkl", ".pickle", ".pt", ".pth", ".h5", ".hdf5", ".mat", ".sdf", ".smi"}

// streamed reports a data section that says it streams (streaming: true beside the path).
func streamed(sec *doc.Node) bool {
	b, ok := sec.Get("streaming").Bool()
	return ok && b
}

// wholeFileURL reports an http(s) URL of one file read whole (by its extension, past any query
// or fragment). Plain HTTP offers no listing or ranged reads to a generic loader, so code that
// trains from such a file downloads it first (DIG's PygDataset.download fetches data.url into
// its root folder before training, dig/ggraph/dataset/PygDataset.py, divelab/DIG): whether
// anything is read remotely while training is then unknown, and the rule stays silent. A
// shard pattern ({000..127}) is still reported.
func wholeFileURL(u string) bool {
	l := strings.ToLower(strings.TrimSpace(u))
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") || strings.ContainsAny(l, "{*") {
		return false
	}
	if i := strings.IndexAny(l, "?#"); i >= 0 {
		l = l[:i]
	}
	if b := path.Base(l); (strings.Contains(b, ".tar.") || strings.HasSuffix(b, ".tgz")) && shardName(b) {
		return false // a compressed tar shard
	}
	for _, e := range wholeFiles {
		if strings.HasSuffix(l, e) {
			return true
		}
	}
	return false
}

// levanterSource reports Levanter's text data source: train_urls beside validation_urls or a
// tokenizer. Levanter tokenizes the URLs once into cache_dir, "cache/" (a local folder) when the
// file names none, and trains from that cache (LMDatasetConfig, src/levanter/data/text.py:428,
// 440-442 at releases/levanter/v1.0; LMTaskConfig.cache_dir, text.py:529 at 9263f81): nothing is
// read from the URLs while training.
func levanterSource(n *doc.Node) bool {
	return n.Key == "train_urls" && isMap(n.Parent) && (n.Parent.Get("validation_urls") != nil || n.Parent.Get("tokenizer") != nil)
}

// allennlpSource reports AllenNLP's train_data_path beside its dataset_reader: the reader the
// config names opens the path, and AllenNLP's own readers first download a URL into the local
// cache with cached_path (allennlp/data/dataset_readers/text_classification_json.py:77,
// sequence_tagging.py:67 at v2.10.1; 26 readers at v0.9.0; allenai/vampire's reader too), while
// a reader of the project's may stream it: whether training reads remote storage is unknown.
func allennlpSource(n *doc.Node) bool {
	return n.Key == "train_data_path" && isMap(n.Parent) && n.Parent.Get("dataset_reader") != nil
}

// axoRemote: axolotl streams a pretraining_dataset, and the datasets when streaming is on, with
// datasets.load_dataset(..., streaming=True); a path on S3, GCS, Azure or an https URL is then
// read through fsspec as training runs, with nothing downloaded first
// (utils/data/shared.py load_dataset_with_config, v0.18.0).
func axoRemote(root *doc.Node, streaming plan.Fact[bool]) plan.Fact[string] {
	lists := []string{"pretraining_dataset"}
	if streaming.IsExplicit() && streaming.Value {
		lists = append(lists, "datasets")
	}
	for _, l := range lists {
		n := root.Get(l)
		items := []*doc.Node{n}
		if n != nil && n.Kind == doc.Seq {
			items = n.Children
		}
		for _, it := range items {
			path := it
			if isMap(it) {
				path = it.Get("path")
			}
			if u, at := firstRemote(path); at != nil {
				return plan.Fact[string]{Value: u, Origin: plan.Explicit, Key: genPathOf(at), Node: at, Note: "streamed by datasets.load_dataset"}
			}
		}
	}
	return plan.Fact[string]{}
}

// shardName reports a file name numbered as one shard of many: a run of four or more digits
// (train-000000.tgz) or an "-of-" count (c4-train.00000-of-01024).
func shardName(base string) bool {
	run := 0
	for i := 0; i < len(base); i++ {
		if base[i] >= '0' && base[i] <= '9' {
			if run++; run >= 4 {
				return true
			}
		} else {
			run = 0
		}
	}
	return strings.Contains(base, "-of-")
}
