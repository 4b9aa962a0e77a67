package scan

import (
	"cmp"
	"errors"
	"slices"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// Table defaults.
const (
	DefaultMaxBSS = 256
	// DefaultMaxAge is cfg80211's scan result expiry (IEEE80211_SCAN_RESULT_EXPIRE).
	// With periodic sweeps, set MaxAge above the period or entries vanish
	// between sweeps.
	DefaultMaxAge = 30 * time.Second
)

// TableConfig sizes a Table.
type TableConfig struct {
	MaxBSS int           // entries; when full the oldest (then weakest) is dropped
	MaxAge time.Duration // an entry not heard for longer ages out
	Freqs  []int         // channels (MHz) the survey keeps figures for
}

// TableStats are the table's running totals.
type TableStats struct {
	Updates   uint64 // frames accepted
	Added     uint64
	Evicted   uint64 // dropped to make room for a new BSS
	Expired   uint64 // aged out
	Malformed uint64 // bodies too short, or elements truncated (kept up to the fault)
	NotBSS    uint64 // frames that are not Beacons or Probe Responses
}

// Table holds the BSSs heard on any channel and the per-channel survey.
// Memory is allocated by NewTable and never grows.
type Table struct {
	cfg     TableConfig
	entries []BSS // dense; order is not meaningful
	index   map[ieee80211.MAC]int
	surveys []Survey
	stats   TableStats
}

// NewTable returns an empty table.
func NewTable(cfg TableConfig) *Table {
	if cfg.MaxBSS <= 0 {
		cfg.MaxBSS = DefaultMaxBSS
	}
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = DefaultMaxAge
	}
	t := &Table{
		cfg:     cfg,
		entries: make([]BSS, 0, cfg.MaxBSS),
		index:   make(map[ieee80211.MAC]int, cfg.MaxBSS),
		surveys: make([]Survey, len(cfg.Freqs)),
	}
	for i, f := range cfg.Freqs {
		t.surveys[i].Freq = f
	}
	return t
}

// Update records a received Beacon or Probe Response f; ri gives the
// frequency and signal it was received with. Other frames are counted and
// ignored. A known BSS is updated without allocating.
func (t *Table) Update(now time.Duration, f ieee80211.Frame, ri *radio.RxInfo) error {
	probe := f.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeResp)
	if !probe && !f.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
		t.stats.NotBSS++
		return ieee80211.ErrFrameType
	}
	return t.Observe(now, f.Addr3(), probe, ri, f.Body())
}

// Observe records the body of a Beacon (probe false) or Probe Response from
// bssid. The body is not retained.
func (t *Table) Observe(now time.Duration, bssid ieee80211.MAC, probe bool, ri *radio.RxInfo, body []byte) error {
	var b BSS
	err := parseBody(&b, body)
	if err != nil {
		t.stats.Malformed++
		if !errors.Is(err, ieee80211.ErrTruncated) {
			return err // not even the fixed fields
		}
	}
	heard := int(ri.Freq)
	t.countHeard(heard, probe)
	e := t.entry(now, bssid)
	e.merge(&b, now, heard, probe, ri)
	t.stats.Updates++
	return err
}

// merge copies what a new frame says into the entry, keeping a hidden
// BSS's SSID learned from a probe response.
func (e *BSS) merge(b *BSS, now time.Duration, heard int, probe bool, ri *radio.RxInfo) {
	ssid, n, hidden := e.SSID, e.SSIDLen, e.Hidden
	first, beacons, resps := e.FirstSeen, e.Beacons, e.ProbeResps
	bssid := e.BSSID
	*e = *b
	e.BSSID, e.FirstSeen, e.Beacons, e.ProbeResps = bssid, first, beacons, resps
	if zeroed(b.SSID[:b.SSIDLen]) {
		e.Hidden = true
		if n > 0 && !zeroed(ssid[:n]) {
			e.SSID, e.SSIDLen = ssid, n
		}
	} else if !probe {
		e.Hidden = false
	} else {
		e.Hidden = hidden
	}
	e.HeardFreq, e.Freq = heard, e.channelFreq(heard)
	e.Signal, e.HasSignal = ri.Signal, ri.HasSignal
	e.LastSeen, e.FromProbe = now, probe
	if probe {
		e.ProbeResps++
	} else {
		e.Beacons++
	}
}

// entry returns the entry of bssid, making room for it if it is new.
func (t *Table) entry(now time.Duration, bssid ieee80211.MAC) *BSS {
	if i, ok := t.index[bssid]; ok {
		return &t.entries[i]
	}
	if len(t.entries) == cap(t.entries) {
		t.Expire(now)
	}
	if len(t.entries) == cap(t.entries) {
		t.remove(t.victim())
		t.stats.Evicted++
	}
	t.entries = append(t.entries, BSS{BSSID: bssid, FirstSeen: now})
	t.index[bssid] = len(t.entries) - 1
	t.stats.Added++
	return &t.entries[len(t.entries)-1]
}

// victim is the entry heard longest ago; among equals, the weakest.
func (t *Table) victim() int {
	v := 0
	for i := 1; i < len(t.entries); i++ {
		e, w := &t.entries[i], &t.entries[v]
		if e.LastSeen < w.LastSeen || (e.LastSeen == w.LastSeen && e.Signal < w.Signal) {
			v = i
		}
	}
	return v
}

func (t *Table) remove(i int) {
	delete(t.index, t.entries[i].BSSID)
	last := len(t.entries) - 1
	if i != last {
		t.entries[i] = t.entries[last]
		t.index[t.entries[i].BSSID] = i
	}
	t.entries = t.entries[:last]
}

// Expire drops the entries not heard for longer than MaxAge and returns how
// many it dropped.
func (t *Table) Expire(now time.Duration) int {
	n := 0
	for i := 0; i < len(t.entries); {
		if now-t.entries[i].LastSeen > t.cfg.MaxAge {
			t.remove(i)
			n++
			continue
		}
		i++
	}
	t.stats.Expired += uint64(n)
	return n
}

// Len returns the number of entries, aged or not.
func (t *Table) Len() int { return len(t.entries) }

// Stats returns the running totals.
func (t *Table) Stats() TableStats { return t.stats }

// Get returns the entry of bssid.
func (t *Table) Get(bssid ieee80211.MAC) (BSS, bool) {
	if i, ok := t.index[bssid]; ok {
		return t.entries[i], true
	}
	return BSS{}, false
}

// All appends the entries heard within MaxAge of now to dst, ordered by
// frequency and then BSSID, so output is stable.
func (t *Table) All(dst []BSS, now time.Duration) []BSS {
	n := len(dst)
	for i := range t.entries {
		if now-t.entries[i].LastSeen <= t.cfg.MaxAge {
			dst = append(dst, t.entries[i])
		}
	}
	slices.SortFunc(dst[n:], func(a, b BSS) int {
		if c := cmp.Compare(a.Freq, b.Freq); c != 0 {
			return c
		}
		return slices.Compare(a.BSSID[:], b.BSSID[:])
	})
	return dst
}
