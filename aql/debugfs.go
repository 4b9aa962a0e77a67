package aql

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/airq/airq/internal/ieee80211"
)

// The formats below are those of net/mac80211/debugfs.c: aql_txq_limit_read
// and _write, the u32 attribute aql_threshold, and aql_pending_read.

const (
	txqLimitHeader = "AC\tAQL limit low\tAQL limit high\n"
	pendingHeader  = "AC     AQL pending\n"
	u32Range       = "accepted range 0..4294967295"
)

// AppendTxqLimit appends the aql_txq_limit table of l, byte for byte as the
// kernel prints it: "AC\tAQL limit low\tAQL limit high\n" then
// "VO\t%u\t\t%u\n" for VO, VI, BE, BK.
func (l *Limits) AppendTxqLimit(b []byte) []byte {
	b = append(b, txqLimitHeader...)
	for ac := range ieee80211.NumACs {
		b = append(b, ieee80211.AC(ac).String()...)
		b = append(b, '\t')
		b = strconv.AppendUint(b, uint64(l.Low[ac]), 10)
		b = append(b, "\t\t"...)
		b = strconv.AppendUint(b, uint64(l.High[ac]), 10)
		b = append(b, '\n')
	}
	return b
}

// TxqLimitText returns the aql_txq_limit table of l.
func (l *Limits) TxqLimitText() string { return string(l.AppendTxqLimit(nil)) }

// ParseTxqLimit reads an aql_txq_limit table (as printed by the kernel or by
// AppendTxqLimit) into l's Low and High. Whitespace between fields may be
// any run of blanks; every AC must appear exactly once. l is unchanged on
// error.
func (l *Limits) ParseTxqLimit(s string) error {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) != 1+ieee80211.NumACs || strings.Join(strings.Fields(lines[0]), " ") != "AC AQL limit low AQL limit high" {
		return fmt.Errorf("aql: aql_txq_limit: want a header and %d AC lines", ieee80211.NumACs)
	}
	out := *l
	var seen [ieee80211.NumACs]bool
	for _, line := range lines[1:] {
		f := strings.Fields(line)
		if len(f) != 3 {
			return fmt.Errorf("aql: aql_txq_limit: line %q: want \"<AC> <low> <high>\"", line)
		}
		ac, ok := ieee80211.ParseAC(f[0])
		if !ok || seen[ac] {
			return fmt.Errorf("aql: aql_txq_limit: line %q: AC must be one of VO, VI, BE, BK, each once", line)
		}
		seen[ac] = true
		var err error
		if out.Low[ac], out.High[ac], err = parseLowHigh(ac, f[1], f[2]); err != nil {
			return err
		}
	}
	*l = out
	return nil
}

// parseLowHigh reads one AC's limits for every parser of the package (the
// flag, the config key, the table and the debugfs write), with the rule
// the control socket's aql set applies: LOW <= HIGH.
func parseLowHigh(ac ieee80211.AC, lo, hi string) (low, high uint32, err error) {
	if low, err = parseU32(lo); err != nil {
		return 0, 0, fmt.Errorf("aql: %v low %q: %s µs", ac, lo, u32Range)
	}
	if high, err = parseU32(hi); err != nil {
		return 0, 0, fmt.Errorf("aql: %v high %q: %s µs", ac, hi, u32Range)
	}
	return low, high, checkLowHigh(ac, low, high)
}

// ErrLowAboveHigh is wrapped by the errors of a low limit above the high one.
var ErrLowAboveHigh = errors.New("want LOW <= HIGH")

// checkLowHigh refuses a low limit above the high one: the station would
// pass the low check at pending airtimes the high limit is meant to stop.
func checkLowHigh(ac ieee80211.AC, low, high uint32) error {
	if low > high {
		return fmt.Errorf("aql: %v low %d µs is above high %d µs: %w", ac, low, high, ErrLowAboveHigh)
	}
	return nil
}

// parseU32 accepts decimal digits only, like the kernel's %u without sign.
func parseU32(s string) (uint32, error) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, strconv.ErrSyntax
	}
	v, err := strconv.ParseUint(s, 10, 32)
	return uint32(v), err
}

// TxqLimitWrite is one write to aql_txq_limit: "<ac> <low> <high>".
type TxqLimitWrite struct {
	AC        ieee80211.AC
	Low, High uint32
}

// ParseTxqLimitWrite parses what aql_txq_limit_write accepts: three decimal
// numbers, the AC as 0-3 (VO, VI, BE, BK), an optional trailing newline.
// Unlike the kernel's sscanf, trailing garbage is an error, and so is a
// low limit above the high one.
func ParseTxqLimitWrite(s string) (TxqLimitWrite, error) {
	f := strings.Fields(strings.TrimSuffix(s, "\n"))
	if len(f) != 3 {
		return TxqLimitWrite{}, fmt.Errorf("aql: aql_txq_limit write %q: want \"<ac 0-3> <low> <high>\"", s)
	}
	n, err := parseU32(f[0])
	if err != nil || n >= ieee80211.NumACs {
		return TxqLimitWrite{}, fmt.Errorf("aql: AC %q: accepted range 0..3 (VO, VI, BE, BK)", f[0])
	}
	w := TxqLimitWrite{AC: ieee80211.AC(n)}
	w.Low, w.High, err = parseLowHigh(w.AC, f[1], f[2])
	return w, err
}

// String returns the write in the form ParseTxqLimitWrite accepts.
func (w TxqLimitWrite) String() string {
	return fmt.Sprintf("%d %d %d\n", w.AC, w.Low, w.High)
}

// Apply performs the write on t, as the kernel does on a write to the file.
func (w TxqLimitWrite) Apply(t *Tracker) error { return t.SetLimit(w.AC, w.Low, w.High) }

// FormatThreshold prints aql_threshold: "%u\n" (debugfs_create_u32 prints
// "%llu\n" of the value).
func FormatThreshold(us uint32) string { return strconv.FormatUint(uint64(us), 10) + "\n" }

// ParseThreshold parses a write to aql_threshold. Like kstrtoull with base
// 0 it accepts decimal, 0x-hex and 0-octal and one trailing newline; values
// above u32 are refused where debugfs would silently truncate them.
func ParseThreshold(s string) (uint32, error) {
	t := strings.TrimSuffix(s, "\n")
	if t == "" || strings.ContainsAny(t, "_+-") {
		return 0, fmt.Errorf("aql: threshold %q: %s µs", s, u32Range)
	}
	v, err := strconv.ParseUint(t, 0, 32)
	if err != nil || strings.HasPrefix(strings.ToLower(t), "0b") || strings.HasPrefix(strings.ToLower(t), "0o") {
		return 0, fmt.Errorf("aql: threshold %q: %s µs", s, u32Range)
	}
	return uint32(v), nil
}

// PendingSnapshot is what aql_pending shows: µs pending per AC and in total.
type PendingSnapshot struct {
	AC    [ieee80211.NumACs]uint64
	Total uint64
}

// Snapshot returns the tracker's per-AC and total pending airtime.
func (t *Tracker) Snapshot() PendingSnapshot {
	var p PendingSnapshot
	for ac := range p.AC {
		p.AC[ac] = uint64(t.pending[ac])
	}
	p.Total = uint64(t.Total())
	return p
}

// AppendPending appends p in aql_pending's format:
// "AC     AQL pending\n", "VO     %u us\n" ... "BK     %u us\n",
// "total  %u us\n".
func (p *PendingSnapshot) AppendPending(b []byte) []byte {
	b = append(b, pendingHeader...)
	for ac := range ieee80211.NumACs {
		b = append(b, ieee80211.AC(ac).String()...)
		b = append(b, "     "...)
		b = strconv.AppendUint(b, p.AC[ac], 10)
		b = append(b, " us\n"...)
	}
	b = append(b, "total  "...)
	b = strconv.AppendUint(b, p.Total, 10)
	return append(b, " us\n"...)
}

// String returns p in aql_pending's format.
func (p PendingSnapshot) String() string { return string(p.AppendPending(nil)) }

// ParsePending reads aql_pending's format back.
func ParsePending(s string) (PendingSnapshot, error) {
	var p PendingSnapshot
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) != ieee80211.NumACs+2 || strings.Join(strings.Fields(lines[0]), " ") != "AC AQL pending" {
		return p, fmt.Errorf("aql: aql_pending: want a header, %d AC lines and a total", ieee80211.NumACs)
	}
	for i, line := range lines[1:] {
		f := strings.Fields(line)
		name := "total"
		if i < ieee80211.NumACs {
			name = ieee80211.AC(i).String()
		}
		if len(f) != 3 || f[0] != name || f[2] != "us" {
			return p, fmt.Errorf("aql: aql_pending: line %q: want \"%s <n> us\"", line, name)
		}
		v, err := strconv.ParseUint(f[1], 10, 64)
		if err != nil || f[1][0] < '0' || f[1][0] > '9' {
			return p, fmt.Errorf("aql: aql_pending: %s %q: accepted range 0..18446744073709551615 µs", name, f[1])
		}
		if i < ieee80211.NumACs {
			p.AC[i] = v
		} else {
			p.Total = v
		}
	}
	return p, nil
}
