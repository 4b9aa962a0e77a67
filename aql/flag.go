package aql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/airq/airq/internal/ieee80211"
)

// Limits implements flag.Value with the syntax
//
//	VO=5000:12000,BE=500:1000,threshold=24000
//
// AC names are case-insensitive; each item sets only what it names, so
// repeated flags merge (later items win). Set the defaults before
// registering the flag: flag.Var(&l, "aql", ...) with l = DefaultLimits().

// String prints every AC and the threshold, so that Set(String()) restores l.
func (l *Limits) String() string {
	if l == nil {
		return ""
	}
	var b []byte
	for ac := range ieee80211.NumACs {
		b = append(b, ieee80211.AC(ac).String()...)
		b = append(b, '=')
		b = strconv.AppendUint(b, uint64(l.Low[ac]), 10)
		b = append(b, ':')
		b = strconv.AppendUint(b, uint64(l.High[ac]), 10)
		b = append(b, ',')
	}
	b = append(b, "threshold="...)
	b = strconv.AppendUint(b, uint64(l.Threshold), 10)
	return string(b)
}

// Set applies the items of s to l. On error l is unchanged.
func (l *Limits) Set(s string) error {
	out := *l
	for item := range strings.SplitSeq(s, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return fmt.Errorf("aql: %q: want KEY=VALUE with KEY one of VO, VI, BE, BK, threshold", item)
		}
		if strings.EqualFold(key, "threshold") {
			v, err := parseU32(val)
			if err != nil {
				return fmt.Errorf("aql: threshold %q: %s µs", val, u32Range)
			}
			out.Threshold = v
			continue
		}
		ac, ok := ieee80211.ParseAC(key)
		if !ok {
			return fmt.Errorf("aql: unknown key %q: accepted VO, VI, BE, BK, threshold", key)
		}
		lo, hi, ok := strings.Cut(val, ":")
		if !ok {
			return fmt.Errorf("aql: %v %q: want LOW:HIGH in µs, each in 0..4294967295", ac, val)
		}
		var err error
		if out.Low[ac], out.High[ac], err = parseLowHigh(ac, lo, hi); err != nil {
			return err
		}
	}
	*l = out
	return nil
}
