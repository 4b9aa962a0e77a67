package ctl

import (
	"fmt"
	"io"
	"reflect"
	"strconv"
	"text/tabwriter"

	"github.com/airq/airq/internal/ieee80211"
)

// The formatters print what operators already read: `iw dev X station
// dump`, mac80211's debugfs files and hostapd_cli's key=value status.

// appendPerAC prints "VO: n<unit> VI: ..." like debugfs's airtime file.
func appendPerAC(b []byte, p *PerAC, unit string) []byte {
	for ac, v := range p {
		if ac > 0 {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "%s: %d%s", ieee80211.AC(ac), v, unit)
	}
	return append(b, '\n')
}

func yes(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

// AppendTxqLimit appends aql_txq_limit as mac80211 prints it.
func (q *AQL) AppendTxqLimit(b []byte) []byte {
	b = append(b, "AC\tAQL limit low\tAQL limit high\n"...)
	for ac := range ieee80211.NumACs {
		b = fmt.Appendf(b, "%s\t%d\t\t%d\n", ieee80211.AC(ac), q.Low[ac], q.High[ac])
	}
	return b
}

// AppendThreshold appends aql_threshold as mac80211 prints it.
func (q *AQL) AppendThreshold(b []byte) []byte {
	return append(strconv.AppendUint(b, uint64(q.Threshold), 10), '\n')
}

// AppendPending appends aql_pending as mac80211 prints it.
func (q *AQL) AppendPending(b []byte) []byte {
	b = append(b, "AC     AQL pending\n"...)
	for ac := range ieee80211.NumACs {
		b = fmt.Appendf(b, "%s     %d us\n", ieee80211.AC(ac), q.Pending[ac])
	}
	return fmt.Appendf(b, "total  %d us\n", q.PendingTotal)
}

// AppendAQL appends the three debugfs files the way `head aql_txq_limit
// aql_threshold aql_pending` shows them.
func (q *AQL) AppendAQL(b []byte) []byte {
	b = q.AppendTxqLimit(append(b, "==> aql_txq_limit <==\n"...))
	b = q.AppendThreshold(append(b, "\n==> aql_threshold <==\n"...))
	return q.AppendPending(append(b, "\n==> aql_pending <==\n"...))
}

// AppendStatus appends s as key=value lines, like `hostapd_cli status`.
// Strings are printed bare unless they need quoting to stay on one line.
func AppendStatus(b []byte, s *Status) []byte {
	return appendKeyValues(b, recStatus, s)
}

// appendKeyValues appends the fields of the record p points to as
// key=value lines.
func appendKeyValues(b []byte, rec record, p any) []byte {
	v := reflect.ValueOf(p).Elem()
	for _, f := range rec.fields {
		b = append(append(b, f.key...), '=')
		fv := f.value(v)
		if str, ok := fv.Interface().(string); ok && strconv.Quote(str) == `"`+str+`"` {
			b = append(b, str...)
		} else {
			b, _ = f.append(b, fv) // the records printed this way hold no floats
		}
		b = append(b, '\n')
	}
	return b
}

// WriteScheduler prints the scheduler's per-AC state as a table, one row
// per counter and one column per AC.
func WriteScheduler(w io.Writer, s *Scheduler) error {
	if _, err := fmt.Fprintf(w, "mode: %s\nbacklog: %d frames, %d bytes\nflow collisions: %d\n\n",
		s.Mode, s.BacklogFrame, s.BacklogBytes, s.Collisions); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for ac := range s.AC {
		fmt.Fprintf(tw, "%s\t", s.AC[ac].AC)
	}
	fmt.Fprintln(tw)
	for _, f := range recAC.fields[1:] { // the first field is the AC itself
		fmt.Fprintf(tw, "%s\t", f.key)
		for ac := range s.AC {
			c, _ := f.append(nil, f.value(reflect.ValueOf(&s.AC[ac]).Elem()))
			fmt.Fprintf(tw, "%s\t", c)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
