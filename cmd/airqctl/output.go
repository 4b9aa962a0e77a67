package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/airq/airq/ctl"
)

// clock is the time station output prints (iw's current time and
// association times); tests fix it.
var clock = func() ctl.Clock { return ctl.Clock{Wall: time.Now(), Boot: bootTime()} }

// show writes what req asked for. A set command prints the value it set,
// read back from the daemon's reply: iw and a debugfs write print nothing,
// but airqctl is read by people who want to see the change took.
func show(w io.Writer, req ctl.Request, r *ctl.Reply, asJSON bool, ifname string) error {
	if asJSON {
		return printJSON(w, req, r)
	}
	var b []byte
	switch req.Op {
	case ctl.OpStatus:
		if r.Status != nil {
			b = ctl.AppendStatus(b, r.Status)
		}
	case ctl.OpStationDump, ctl.OpStationGet:
		now := clock()
		for i := range r.Stations {
			b = ctl.AppendStation(b, ifname, &r.Stations[i], now)
		}
	case ctl.OpAQL:
		if r.AQL != nil {
			b = r.AQL.AppendAQL(b)
		}
	case ctl.OpAQLSet, ctl.OpAQLThreshold, ctl.OpStationSet:
		b = appendSet(b, req, r)
	case ctl.OpScheduler:
		if r.Scheduler != nil {
			return ctl.WriteScheduler(w, r.Scheduler)
		}
	case ctl.OpAirtime, ctl.OpAirtimeSet:
		if r.Airtime != nil {
			b = r.Airtime.AppendAirtime(b)
		}
	case ctl.OpStationRates:
		if r.Rates != nil {
			b = ctl.AppendRates(b, ifname, r.Rates)
		}
	case ctl.OpScan:
		if r.Scan != nil {
			b = ctl.AppendScanStatus(b, r.Scan)
		}
	case ctl.OpScanDump:
		b = ctl.AppendScanDump(b, ifname, r.BSSes)
	case ctl.OpSurveyDump:
		b = ctl.AppendSurveyDump(b, ifname, r.Surveys)
	case ctl.OpACS:
		b = appendACS(b, r.ACS)
	case ctl.OpSnapshot:
		return showSnapshot(w, r, ifname)
	case ctl.OpDev:
		b = ctl.AppendDevs(b, r.Devs)
	}
	_, err := w.Write(b)
	return err
}

// showSnapshot prints each part as its own command does, a blank line
// between them.
func showSnapshot(w io.Writer, r *ctl.Reply, ifname string) error {
	parts := []struct {
		op   ctl.Op
		show bool
	}{{ctl.OpStatus, r.Status != nil}, {ctl.OpDev, len(r.Devs) > 0}, {ctl.OpStationDump, len(r.Stations) > 0},
		{ctl.OpAQL, r.AQL != nil}, {ctl.OpScheduler, r.Scheduler != nil}, {ctl.OpScan, r.Scan != nil}}
	sep := false
	for _, p := range parts {
		if !p.show {
			continue
		}
		if sep {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		sep = true
		if err := show(w, ctl.Request{Op: p.op}, r, false, ifname); err != nil {
			return err
		}
	}
	return nil
}

// snapshotJSON is a snapshot's -json form: the parts under their names.
type snapshotJSON struct {
	Status    *ctl.Status     `json:"status"`
	Devs      []ctl.Dev       `json:"devs,omitempty"`
	Stations  []ctl.Station   `json:"stations"`
	AQL       *ctl.AQL        `json:"aql"`
	Scheduler *ctl.Scheduler  `json:"scheduler"`
	Scan      *ctl.ScanStatus `json:"scan,omitempty"`
}

func printJSON(w io.Writer, req ctl.Request, r *ctl.Reply) error {
	var v any
	switch req.Op {
	case ctl.OpStatus:
		v = r.Status
	case ctl.OpStationDump:
		v = r.Stations
		if r.Stations == nil {
			v = []ctl.Station{} // an empty table is [], not null
		}
	case ctl.OpStationGet, ctl.OpStationSet:
		if len(r.Stations) == 1 {
			v = r.Stations[0]
		}
	case ctl.OpAQL, ctl.OpAQLSet, ctl.OpAQLThreshold:
		v = r.AQL
	case ctl.OpScheduler:
		v = r.Scheduler
	case ctl.OpAirtime, ctl.OpAirtimeSet:
		v = r.Airtime
	case ctl.OpStationRates:
		v = r.Rates
	case ctl.OpScan:
		v = r.Scan
	case ctl.OpACS:
		v = r.ACS
	case ctl.OpSnapshot:
		snap := snapshotJSON{r.Status, r.Devs, r.Stations, r.AQL, r.Scheduler, r.Scan}
		if snap.Stations == nil {
			snap.Stations = []ctl.Station{}
		}
		v = snap
	case ctl.OpScanDump:
		v = r.BSSes
		if r.BSSes == nil {
			v = []ctl.BSS{}
		}
	case ctl.OpSurveyDump:
		v = r.Surveys
		if r.Surveys == nil {
			v = []ctl.Survey{}
		}
	case ctl.OpDev:
		v = r.Devs
		if r.Devs == nil {
			v = []ctl.Dev{}
		}
	default:
		return nil // station del: nothing to show
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// appendACS prints the start-up channel selection as the daemon decided it.
func appendACS(b []byte, a *ctl.ACS) []byte {
	switch {
	case a == nil:
		return b
	case a.Scanning:
		return append(b, "ACS: scanning the channels; no channel chosen yet\n"...)
	case !a.Decided:
		return append(b, "ACS: not used: the channel was configured\n"...)
	}
	b = fmt.Appendf(b, "ACS: chose channel %d (%d MHz) by %s after %d ms of scanning\n", a.Channel, a.Freq, a.Method, a.TookMs)
	return append(b, a.Text...)
}

// appendSet prints what a set command changed, as the daemon now holds it:
// the AC's row of aql_txq_limit, aql_threshold, or the station's weight.
func appendSet(b []byte, req ctl.Request, r *ctl.Reply) []byte {
	switch {
	case req.Op == ctl.OpAQLSet && r.AQL != nil:
		ac := req.AC
		return fmt.Appendf(b, "AC\tAQL limit low\tAQL limit high\n%s\t%d\t\t%d\n", ac, r.AQL.Low[ac], r.AQL.High[ac])
	case req.Op == ctl.OpAQLThreshold && r.AQL != nil:
		return fmt.Appendf(b, "aql_threshold %d us\n", r.AQL.Threshold)
	case req.Op == ctl.OpStationSet && len(r.Stations) == 1:
		st := &r.Stations[0]
		return fmt.Appendf(b, "station %s airtime_weight %d\n", st.Addr, st.AirtimeWeight)
	}
	return b
}
