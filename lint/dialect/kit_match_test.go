package dialect

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The hand-written matchers of kit_match.go replace these regular expressions, which the
// dialects used before (regexp was too large for the WebAssembly module). Each matcher must
// agree with its expression on every input: match or not, and the groups it returns.
var (
	reSteps  = regexp.MustCompile(`(?i)^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*(steps?|ba|batch(?:es)?|iters?|iterations?|it)\s*$`)
	reEpoch  = regexp.MustCompile(`(?i)^\s*(\d+(?:\.\d+)?)\s*(ep|epochs?)\s*$`)
	reClock  = regexp.MustCompile(`^\s*(?:(\d+):)?(\d+):(\d+):(\d+)\s*$`)
	reHMS    = regexp.MustCompile(`^\s*(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?\s*$`)
	reUnits  = regexp.MustCompile(`(?i)^\s*(\d+(?:\.\d+)?)\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\s*$`)
	reComp   = regexp.MustCompile(`(?i)^\s*(-?[0-9][0-9_]*(?:\.[0-9]+)?(?:e-?[0-9]+)?)\s*(iter|ep|ba|sp|tok|dur|sec)\s*$`)
	reSexa   = regexp.MustCompile(`^[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+$`)
	reBN     = regexp.MustCompile(`(?i)(^|[^a-z])(resnet|resnext|wide_resnet|wide-resnet|efficientnet|mobilenet|densenet|vgg\d*_bn|regnet|inception|mnasnet|shufflenet|ghostnet|hrnet|bit-|batchnorm|batch_norm|syncbn|conformerencoder|convasrencoder|quartznet|citrinet|jasper|titanet|darknet|cspdarknet)`)
	reRank   = regexp.MustCompile(`(?i)(\bRANK\b|LOCAL_RANK|NODE_RANK|GLOBAL_RANK|WORLD_RANK|process_index|process_id|host_id|\brank\b|SLURM_PROCID|SLURM_NODEID|OMPI_COMM_WORLD_RANK|PMI_RANK)`)
	reRef    = regexp.MustCompile(`^\$\{\s*([A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z_0-9][A-Za-z0-9_\-]*)*)\s*\}$`)
	reEnvRef = regexp.MustCompile(`\$\{\s*oc\.env\s*:\s*([^,}\s]+)\s*(,[^}]*)?\}`)
	reAnyRef = regexp.MustCompile(`\$\{\s*([A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z_0-9][A-Za-z0-9_\-]*)*)\s*\}`)
)

var matchSamples = []string{
	"", " ", "500", "500steps", "500 Steps ", "\t1.5e3 ba\n", "1E3 iters", "2 iterations", "3it", "4 batches", "5 batch",
	"1.ba", "1.5.steps", "1e steps", "ſteps", "1 ſteps", "1 ep", "2 EPOCHS", "2.5epoch", "1 epocH ", "3 ep och",
	"00:30:00", "1:02:03:04", " 1:2:3 ", "1:2", "1:2:3:4:5", "1:2:3:", ":1:2:3", "a:1:2", "1h30m", "90s", "1h", "2m3s",
	"1h2h", "h", "1s2m", "10 minutes", "1.5h", "2 d", "3 Days", "4 hrs", "5 SEC", "6 mins ", "7 ſecs", "1 m", "1m ",
	"1ba", "-1.5e-3ep", "1_000ba", "1_ep", "_1ep", "2 tok", "3 to\u212a", "4 dur", "5sp", "6 iter", "7sec", "1.ep", "1e5ep",
	"1:30", "-1:30", "+1:00:00:00", "0:30", "1:60", "1:59", "1:5", "1:123", "1_0:30", "1:", "1", "1::30",
	"resnet50", "ResNet50", "se_resnet50", "timm/resnet50", "seresnet", "Wide_ResNet", "vgg16_bn", "VGG_bn", "vgg16",
	"efficientnet_b0", "x-mobilenet", "my bit-m", "batchnorm", "BatchNorm2d", "sync batch_norm", "ſyncbn", "cspdarknet53",
	"darknet", "1resnet", "ärésnet", "\xffresnet", "conformerencoder", "jasper", "titanet", "quartznet", "regnet_y",
	"RANK", "${oc.env:RANK}", "seed + rank", "jax.process_index()", "LOCAL_RANK", "myrank", "rank_0", "RAN\u212a", "process_id",
	"host_id", "SLURM_PROCID", "ompi_comm_world_rank", "PMI_RANK", "x_rank", "rank", "(rank)", "node_rank*2", "ranks",
	"${a}", "${ a.b }", "${a.0}", "${a-b.c_d}", "${.a}", "${a:b}", "${a.}", "${a..b}", "${1a}", "${_a}", "x ${a} y ${b.c}",
	"${a", "${a}}", "$${a}", "${${a}}", "${ a\t}", "${a.-b}", "${a.b-}", "${é}",
	"${oc.env:RANK}", "${oc.env:X,0}", "${ oc.env : X , 1 }", "${oc.env:X,}", "${oc.env:}", "${oc.env:A B}", "${oc.env:X,a\nb}",
	"${oc.env:X", "${oc.env:X,1", "a ${oc.env:A} b ${oc.env:B,2}", "${env:X}", "${oc.envX}", "${oc.env:é}", "${oc.env:X,${y}}",
}

func TestMatchersLikeRegexps(t *testing.T) {
	for _, s := range matchSamples {
		checkMatchers(t, s)
	}
}

func FuzzMatchers(f *testing.F) {
	for _, s := range matchSamples {
		f.Add(s)
	}
	f.Fuzz(checkMatchers)
}

func checkMatchers(t *testing.T, s string) {
	t.Helper()
	group := func(m []string, i int) string {
		if m == nil {
			return ""
		}
		return m[i]
	}
	if num, ok := stepsString(s); ok != (reSteps.FindStringSubmatch(s) != nil) || num != group(reSteps.FindStringSubmatch(s), 1) {
		t.Errorf("stepsString(%q) = %q, %v; regexp: %q", s, num, ok, reSteps.FindStringSubmatch(s))
	}
	if num, ok := epochString(s); ok != (reEpoch.FindStringSubmatch(s) != nil) || num != group(reEpoch.FindStringSubmatch(s), 1) {
		t.Errorf("epochString(%q) = %q, %v; regexp: %q", s, num, ok, reEpoch.FindStringSubmatch(s))
	}
	if m, ok := clockString(s); ok != (reClock.FindStringSubmatch(s) != nil) || ok && strings.Join(m[:], "|") != strings.Join(reClock.FindStringSubmatch(s)[1:], "|") {
		t.Errorf("clockString(%q) = %q, %v; regexp: %q", s, m, ok, reClock.FindStringSubmatch(s))
	}
	if m, ok := hmsString(s); ok != (reHMS.FindStringSubmatch(s) != nil) || ok && strings.Join(m[:], "|") != strings.Join(reHMS.FindStringSubmatch(s)[1:], "|") {
		t.Errorf("hmsString(%q) = %q, %v; regexp: %q", s, m, ok, reHMS.FindStringSubmatch(s))
	}
	if num, unit, ok := unitWords(s); ok != (reUnits.FindStringSubmatch(s) != nil) || num != group(reUnits.FindStringSubmatch(s), 1) || unit != group(reUnits.FindStringSubmatch(s), 2) {
		t.Errorf("unitWords(%q) = %q, %q, %v; regexp: %q", s, num, unit, ok, reUnits.FindStringSubmatch(s))
	}
	if num, unit, ok := composerTime(s); ok != (reComp.FindStringSubmatch(s) != nil) || num != group(reComp.FindStringSubmatch(s), 1) || unit != group(reComp.FindStringSubmatch(s), 2) {
		t.Errorf("composerTime(%q) = %q, %q, %v; regexp: %q", s, num, unit, ok, reComp.FindStringSubmatch(s))
	}
	if got := sexagesimal60(s); got != reSexa.MatchString(s) {
		t.Errorf("sexagesimal60(%q) = %v; regexp: %v", s, got, !got)
	}
	if got := bnArch(s); got != group(reBN.FindStringSubmatch(s), 2) {
		t.Errorf("bnArch(%q) = %q; regexp: %q", s, got, reBN.FindStringSubmatch(s))
	}
	if got := rankRef(s); got != reRank.FindString(s) {
		t.Errorf("rankRef(%q) = %q; regexp: %q", s, got, reRank.FindString(s))
	}
	if path, ok := refPattern(s); ok != (reRef.FindStringSubmatch(s) != nil) || path != group(reRef.FindStringSubmatch(s), 1) {
		t.Errorf("refPattern(%q) = %q, %v; regexp: %q", s, path, ok, reRef.FindStringSubmatch(s))
	}
	var wantEnv [][2]string
	for _, m := range reEnvRef.FindAllStringSubmatch(s, -1) {
		wantEnv = append(wantEnv, [2]string{m[1], m[2]})
	}
	if got := envRefs(s); fmt.Sprint(got) != fmt.Sprint(wantEnv) || len(got) != len(wantEnv) {
		t.Errorf("envRefs(%q) = %q; regexp: %q", s, got, wantEnv)
	}
	var want []string
	for _, m := range reAnyRef.FindAllStringSubmatch(s, -1) {
		want = append(want, m[1])
	}
	if got := anyRef(s); strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
		t.Errorf("anyRef(%q) = %q; regexp: %q", s, got, want)
	}
}

var durationSamples = []string{
	"", "0", "-0", "+0", "00", "1s", "-1s", "+1.5h", "1h30m", "1h0.5m", "500ms", ".5s", "5.s", ".s", "1", "1x", "1µs", "1μs",
	"1us", "1ns", "1.0000000000000000000001s", "9223372036854775807ns", "9223372036854775808ns", "-9223372036854775808ns",
	"2562047h", "2562048h", "1e3s", "1h-1m", "1..5s", "0.000000001s", "1.9999999999999999999999999999h", "3m2562047h",
	"18446744073709551616ns", "0.1234567890123456789012345678901234567890s",
}

func checkDuration(t *testing.T, s string) {
	want, err := time.ParseDuration(s)
	got, ok := goDuration(s)
	if ok != (err == nil) || ok && got != int64(want) {
		t.Errorf("goDuration(%q) = %d, %v; time.ParseDuration: %d, %v", s, got, ok, want, err)
	}
	if ok && durationSecondsOf(got) != want.Seconds() {
		t.Errorf("durationSecondsOf(%d) = %v, want %v", got, durationSecondsOf(got), want.Seconds())
	}
}

func TestGoDurationLikeTime(t *testing.T) {
	for _, s := range durationSamples {
		checkDuration(t, s)
	}
}

func FuzzGoDuration(f *testing.F) {
	for _, s := range durationSamples {
		f.Add(s)
	}
	f.Fuzz(checkDuration)
}
