package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
)

func main() {
	keys, err := Keys(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostapdkeys:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	for _, k := range keys {
		fmt.Fprintln(w, k)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "hostapdkeys:", err)
		os.Exit(1)
	}
}

var (
	exact = regexp.MustCompile(`os_strcmp\(buf, "([^"]+)"\)\s*==\s*0`)
	// PARSE_TEST_PROBABILITY(name) compares buf with #name.
	macro  = regexp.MustCompile(`(?m)^\s*PARSE_TEST_PROBABILITY\(([a-z0-9_]+)\)`)
	prefix = regexp.MustCompile(`os_strncmp\(buf, "([^"]+)", [0-9]+\) == 0`)
)

// prefixKeys are the keys behind hostapd_config_fill's prefix
// comparisons, as the helpers it hands them to parse them
// (hostapd_config_tx_queue, hostapd_config_wmm_ac). tx_queue_beacon_* and
// tx_queue_after_beacon_* are left out: hostapd 2.10 accepts them only to
// print that they are ignored.
var prefixKeys = map[string]func() []string{
	"tx_queue_": func() []string { return cross("tx_queue_data", []string{"0", "1", "2", "3"}, "aifs cwmin cwmax burst") },
	"wmm_ac_": func() []string {
		return cross("wmm_ac_", []string{"be", "bk", "vi", "vo"}, "aifs cwmin cwmax txop_limit acm")
	},
	"wme_ac_": func() []string {
		return cross("wme_ac_", []string{"be", "bk", "vi", "vo"}, "aifs cwmin cwmax txop_limit acm")
	},
}

func cross(head string, mids []string, tails string) []string {
	var out []string
	for _, m := range mids {
		for _, t := range strings.Fields(tails) {
			out = append(out, head+m+"_"+t)
		}
	}
	return out
}

// Keys reads config_file.c and returns the keys of hostapd_config_fill,
// sorted and each once.
func Keys(r io.Reader) ([]string, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	src := string(b)
	start := strings.Index(src, "static int hostapd_config_fill(")
	if start < 0 {
		return nil, fmt.Errorf("no hostapd_config_fill() in the input")
	}
	body := src[start:]
	// The function ends at the first closing brace in column 0.
	end := strings.Index(body, "\n}\n")
	if end < 0 {
		return nil, fmt.Errorf("hostapd_config_fill() does not end")
	}
	body = body[:end]
	var keys []string
	for _, m := range exact.FindAllStringSubmatch(body, -1) {
		keys = append(keys, m[1])
	}
	for _, m := range macro.FindAllStringSubmatch(body, -1) {
		keys = append(keys, m[1])
	}
	for _, m := range prefix.FindAllStringSubmatch(body, -1) {
		expand, ok := prefixKeys[m[1]]
		if !ok {
			return nil, fmt.Errorf("a prefix comparison this tool does not know: %q", m[1])
		}
		keys = append(keys, expand()...)
	}
	slices.Sort(keys)
	return slices.Compact(keys), nil
}
