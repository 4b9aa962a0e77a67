package ctl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/airq/airq/internal/ieee80211"
)

// Op is what a request asks for.
type Op uint8

// The operations, one per request form of the grammar in doc.go.
const (
	OpStatus Op = iota + 1
	OpStationDump
	OpStationGet
	OpStationSet
	OpStationDel
	OpAQL
	OpAQLSet
	OpAQLThreshold
	OpScheduler
	OpEvents // a stream, not a request/reply: see Streamer
	OpScan   // the background scan's status
	OpScanDump
	OpSurveyDump
	OpStationRates // one station's rate table
	OpACS          // the start-up channel selection
	OpSnapshot     // status, station dump, aql, scheduler and scan read at one instant
	// OpSAQuery, in process only (no request line parses to it), sends an
	// MFP station one SA Query Request (hostapd's SA_QUERY).
	OpSAQuery
	// OpDisable and OpEnable, in process only, switch the BSS off and on
	// (hostapd's DISABLE and ENABLE).
	OpDisable
	OpEnable
	// OpStationPMK, in process only, is a WPA2 station's PMK (hostapd's
	// GET_PMK, a testing command): the daemon asks it only in testing.
	OpStationPMK
	OpAirtime    // the airtime policy, its BSSes and stations
	OpAirtimeSet // one airtime key changed, live
	OpDev        // the radio's BSSes, as iw dev lists interfaces
)

// MaxRequestLen bounds a request line, newline included: the longest valid
// request is far shorter, so a longer line is garbage or an attack.
const MaxRequestLen = 256

// Request is one parsed request. Only the fields its Op uses are set.
type Request struct {
	Op        Op
	Addr      ieee80211.MAC // station get, get rates, set, del
	Weight    uint16        // station set airtime_weight
	AC        ieee80211.AC  // aql set
	Low, High uint32        // aql set, µs
	Force     bool          // aql set: a zero limit is meant
	Threshold uint32        // aql threshold, µs
	Key       string        // airtime set: the key
	Value     uint32        // airtime set: its value
	// BSS is the BSS an airtime set of a BSS's key is for: its name or
	// its index (0: the first); "": the first.
	BSS string
	// Reason, in process only, is a station del's reason code (0: 3,
	// deauthenticated because leaving, as for airqctl's); it has no text
	// form.
	Reason uint16
	// Why, in process only, is a station del's cause as the disconnection
	// event logs it ("": removed by operator); it has no text form.
	Why string
	// Disassoc, in process only, makes a station del a disassociation:
	// the station stays authenticated (hostapd's DISASSOCIATE).
	Disassoc bool
	// Page, in process only, asks a station dump for one page into the
	// caller's buffer (WriteStationDump); it has no text form.
	Page *StationPage
	// Dev names the BSS a station request is for ("dev NAME station
	// ..."): its stations alone; "": every BSS's.
	Dev string
}

// usage lists every request form, for errors about the command word.
const usage = "status, station dump, station get MAC, station get MAC rates, station set MAC airtime_weight N, " +
	"station del MAC, dev, dev NAME station ..., aql, aql set AC LOW HIGH [force], aql threshold N, scheduler, airtime, airtime set KEY [MAC] N, scan, scan dump, survey dump, acs, snapshot, events"

// ParseRequest parses one request line (a trailing newline is allowed).
// Errors name the offending argument and what is accepted.
func ParseRequest(line string) (Request, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return Request{}, fmt.Errorf("empty request: want one of %s", usage)
	}
	var (
		r   Request
		err error
	)
	switch f[0] {
	case "status":
		r.Op, err = OpStatus, noArgs(f)
	case "station":
		r, err = parseStation(f)
	case "dev":
		r, err = parseDev(f)
	case "aql":
		r, err = parseAQL(f)
	case "scheduler":
		r.Op, err = OpScheduler, noArgs(f)
	case "airtime":
		r, err = parseAirtime(f)
	case "scan":
		r.Op = OpScan
		if len(f) > 1 {
			r.Op, err = OpScanDump, dumpArgs(f)
		}
	case "survey":
		r.Op, err = OpSurveyDump, dumpArgs(f)
	case "events":
		r.Op, err = OpEvents, noArgs(f)
	case "acs":
		r.Op, err = OpACS, noArgs(f)
	case "snapshot":
		r.Op, err = OpSnapshot, noArgs(f)
	default:
		return Request{}, fmt.Errorf("unknown command %q: want one of %s", f[0], usage)
	}
	if err != nil {
		return Request{}, err
	}
	return r, nil
}

func noArgs(f []string) error {
	if len(f) > 1 {
		return fmt.Errorf("%s: unexpected argument %q", f[0], f[1])
	}
	return nil
}

// dumpArgs checks "scan dump" and "survey dump".
func dumpArgs(f []string) error {
	if len(f) < 2 {
		return fmt.Errorf("%s: missing subcommand: want %s dump", f[0], f[0])
	}
	if f[1] != "dump" {
		return fmt.Errorf("%s: unknown subcommand %q: want dump", f[0], f[1])
	}
	return nArgs(f, 0, f[0]+" dump")
}

// nArgs checks that a subcommand got exactly its n arguments.
func nArgs(f []string, n int, form string) error {
	if len(f)-2 < n {
		return fmt.Errorf("%s %s: missing arguments: want %q", f[0], f[1], form)
	}
	if len(f)-2 > n {
		return fmt.Errorf("%s %s: unexpected argument %q: want %q", f[0], f[1], f[2+n], form)
	}
	return nil
}

func parseStation(f []string) (Request, error) {
	if len(f) < 2 {
		return Request{}, errors.New("station: missing subcommand: want dump, get MAC, get MAC rates, set MAC airtime_weight N or del MAC")
	}
	var r Request
	var err error
	switch f[1] {
	case "dump":
		return Request{Op: OpStationDump}, nArgs(f, 0, "station dump")
	case "get":
		r.Op, err = OpStationGet, nArgs(f, 1, "station get MAC")
		switch {
		case len(f) > 3 && f[3] == "rates":
			r.Op, err = OpStationRates, nArgs(f, 2, "station get MAC rates")
		case len(f) == 4:
			err = fmt.Errorf("station get: attribute %q: want rates (or nothing, for the station)", f[3])
		}
	case "del":
		r.Op, err = OpStationDel, nArgs(f, 1, "station del MAC")
	case "set":
		r.Op, err = OpStationSet, nArgs(f, 3, "station set MAC airtime_weight N")
	default:
		return Request{}, fmt.Errorf("station: unknown subcommand %q: want dump, get, set or del", f[1])
	}
	if err != nil {
		return Request{}, err
	}
	if r.Addr, err = parseMAC(f[:3]); err != nil {
		return Request{}, err
	}
	if r.Op == OpStationSet {
		if f[3] != "airtime_weight" {
			return Request{}, fmt.Errorf("station set: attribute %q: want airtime_weight", f[3])
		}
		w, err := strconv.ParseUint(f[4], 10, 16)
		if err != nil || w == 0 {
			return Request{}, fmt.Errorf("station set: airtime_weight %q: want 1 to 65535", f[4])
		}
		r.Weight = uint16(w)
	}
	return r, nil
}

func parseMAC(f []string) (ieee80211.MAC, error) {
	m, err := ieee80211.ParseMAC(f[2])
	if err != nil {
		return m, fmt.Errorf("%s %s: MAC %q: want six hex octets like 02:00:00:00:01:00", f[0], f[1], f[2])
	}
	return m, nil
}

func parseAQL(f []string) (Request, error) {
	if len(f) == 1 {
		return Request{Op: OpAQL}, nil
	}
	switch f[1] {
	case "set":
		return parseAQLSet(f)
	case "threshold":
		if err := nArgs(f, 1, "aql threshold N"); err != nil {
			return Request{}, err
		}
		us, err := parseUS(f[2])
		if err != nil {
			return Request{}, fmt.Errorf("aql threshold: %q: want 0 to 4294967295 µs", f[2])
		}
		return Request{Op: OpAQLThreshold, Threshold: us}, nil
	}
	return Request{}, fmt.Errorf("aql: unknown subcommand %q: want set AC LOW HIGH or threshold N (or nothing, to read)", f[1])
}

// parseAQLSet parses "aql set AC LOW HIGH [force]". Low above high is
// refused, and so is a zero limit without force: high 0 stops the AC's
// traffic, low 0 holds every station of the AC while the total pending
// airtime is above the threshold.
func parseAQLSet(f []string) (Request, error) {
	force := len(f) == 6 && f[5] == "force"
	if force {
		f = f[:5]
	}
	if err := nArgs(f, 3, "aql set AC LOW HIGH [force]"); err != nil {
		return Request{}, err
	}
	ac, ok := parseAC(f[2])
	if !ok {
		return Request{}, fmt.Errorf("aql set: AC %q: want VO, VI, BE, BK or 0 to 3", f[2])
	}
	lo, err1 := parseUS(f[3])
	hi, err2 := parseUS(f[4])
	switch {
	case err1 != nil:
		return Request{}, fmt.Errorf("aql set: low %q: want 0 to 4294967295 µs", f[3])
	case err2 != nil:
		return Request{}, fmt.Errorf("aql set: high %q: want 0 to 4294967295 µs", f[4])
	}
	r := Request{Op: OpAQLSet, AC: ac, Low: lo, High: hi, Force: force}
	return r, r.CheckAQLSet()
}

// CheckAQLSet applies parseAQLSet's rule to an aql set request: the core
// applies it too, for requests that never were a line.
func (r Request) CheckAQLSet() error {
	ac := r.AC
	switch {
	case r.Low > r.High:
		return fmt.Errorf("aql set: low %d µs is above high %d µs: want LOW <= HIGH", r.Low, r.High)
	case r.High == 0 && !r.Force:
		return fmt.Errorf("aql set: high 0 µs stops all %s traffic: add force (aql set %s 0 0 force) if that is meant", ac, ac)
	case r.Low == 0 && !r.Force:
		return fmt.Errorf("aql set: low 0 µs holds every %s station while the total pending airtime is above the threshold: "+
			"add force (aql set %s 0 %d force) if that is meant", ac, ac, r.High)
	}
	return nil
}

// parseAC takes the name or debugfs's number (0 = VO ... 3 = BK).
func parseAC(s string) (ieee80211.AC, bool) {
	if len(s) == 1 && s[0] >= '0' && s[0] < '0'+ieee80211.NumACs {
		return ieee80211.AC(s[0] - '0'), true
	}
	return ieee80211.ParseAC(s)
}

// parseUS accepts decimal digits only, like debugfs's %u.
func parseUS(s string) (uint32, error) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, strconv.ErrSyntax
	}
	v, err := strconv.ParseUint(s, 10, 32)
	return uint32(v), err
}

// String returns the canonical request line, without the newline;
// ParseRequest(r.String()) == r for every request ParseRequest returns.
func (r Request) String() string {
	if r.Dev != "" && r.Op != OpDev {
		return "dev " + r.Dev + " " + r.opString()
	}
	return r.opString()
}

func (r Request) opString() string {
	switch r.Op {
	case OpDev:
		return "dev"
	case OpStatus:
		return "status"
	case OpStationDump:
		return "station dump"
	case OpStationGet:
		return "station get " + r.Addr.String()
	case OpStationSet:
		return fmt.Sprintf("station set %s airtime_weight %d", r.Addr, r.Weight)
	case OpStationDel:
		return "station del " + r.Addr.String()
	case OpAQL:
		return "aql"
	case OpAQLSet:
		if r.Force {
			return fmt.Sprintf("aql set %s %d %d force", r.AC, r.Low, r.High)
		}
		return fmt.Sprintf("aql set %s %d %d", r.AC, r.Low, r.High)
	case OpAQLThreshold:
		return fmt.Sprintf("aql threshold %d", r.Threshold)
	case OpScheduler:
		return "scheduler"
	case OpEvents:
		return "events"
	case OpScan:
		return "scan"
	case OpScanDump:
		return "scan dump"
	case OpSurveyDump:
		return "survey dump"
	case OpStationRates:
		return "station get " + r.Addr.String() + " rates"
	case OpACS:
		return "acs"
	case OpSnapshot:
		return "snapshot"
	case OpSAQuery:
		return "sa_query " + r.Addr.String()
	case OpDisable:
		return "disable"
	case OpEnable:
		return "enable"
	case OpStationPMK:
		return "station pmk " + r.Addr.String()
	case OpAirtime:
		return "airtime"
	case OpAirtimeSet:
		return r.airtimeSetString()
	}
	return fmt.Sprintf("op(%d)", r.Op)
}

// ReadOnly reports whether the request only reads state.
func (r Request) ReadOnly() bool {
	switch r.Op {
	case OpStationSet, OpStationDel, OpAQLSet, OpAQLThreshold, OpSAQuery, OpDisable, OpEnable, OpAirtimeSet:
		return false
	}
	return true
}
