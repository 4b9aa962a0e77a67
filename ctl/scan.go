package ctl

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/airq/airq/internal/ieee80211"
)

// ScanStatus is the background scan's state and running totals: the trip
// planner's, the core's side of the trips (retunes, time away, probes) and
// the BSS table's.
// ACS is the start-up channel selection (channel=0): whether it is still
// scanning, and once decided the choice and the figures behind it, as the
// core wrote them (hostapd's ACS debug phrasing, one line per channel).
type ACS struct {
	Scanning bool   `json:"scanning"`
	Decided  bool   `json:"decided"`
	TookMs   int64  `json:"took_ms"`
	Channel  int    `json:"channel"`
	Freq     int    `json:"freq"`
	Method   string `json:"method"`
	Text     string `json:"text"`
}

type ScanStatus struct {
	Mode          string `json:"mode"` // continuous or periodic
	Channels      int    `json:"channels"`
	TripLimit     uint64 `json:"trip_limit_us"` // longest trip the planner allows
	Sweeping      bool   `json:"sweeping"`
	SweepVisited  int    `json:"sweep_visited"` // channels of the sweep in progress visited so far
	SweepChannels int    `json:"sweep_channels"`

	Trips         uint64 `json:"trips"`
	ActiveVisits  uint64 `json:"active_visits"`
	PassiveVisits uint64 `json:"passive_visits"`
	Sweeps        uint64 `json:"sweeps"`        // completed
	SweepAge      int64  `json:"sweep_age_ms"`  // since the current or last sweep started; -1 before the first
	LastSweep     uint64 `json:"last_sweep_us"` // duration of the last complete sweep
	LongestSweep  uint64 `json:"longest_sweep_us"`
	LongestTrip   uint64 `json:"longest_trip_us"`
	Deferred      uint64 `json:"deferred"` // due trips postponed under load
	Forced        uint64 `json:"forced"`   // trips taken under load: the deferral bound ran out
	MissedBeacons uint64 `json:"missed_beacons"`
	NoRoom        uint64 `json:"no_room"` // due trips that did not fit before the next beacon

	Retunes       uint64 `json:"retunes"`
	RetuneMax     uint64 `json:"retune_max_us"` // longest request-to-tuned time
	RetuneTooSlow uint64 `json:"retune_too_slow"`
	Away          uint64 `json:"away_us"` // total time off the operating channel
	RxWhileAway   uint64 `json:"rx_while_away"`
	ProbesSent    uint64 `json:"probes_sent"`

	BSSes          int    `json:"bss_count"` // table entries heard within their age
	TableUpdates   uint64 `json:"table_updates"`
	TableAdded     uint64 `json:"table_added"`
	TableEvicted   uint64 `json:"table_evicted"`
	TableExpired   uint64 `json:"table_expired"`
	TableMalformed uint64 `json:"table_malformed"`
}

// BSS is one entry of the scan table: what the last Beacon or Probe
// Response of a BSSID said, and when it was heard. It carries what `iw dev
// X scan dump` prints.
type BSS struct {
	BSSID          MAC    `json:"bssid"`
	SSID           string `json:"ssid"` // the octets as sent (not necessarily UTF-8)
	Hidden         bool   `json:"hidden"`
	Freq           int    `json:"freq"`       // the BSS's channel
	HeardFreq      int    `json:"heard_freq"` // where the last frame was heard
	Signal         int8   `json:"signal_dbm"` // valid if HasSignal
	HasSignal      bool   `json:"has_signal"`
	LastSeen       int64  `json:"last_seen_ms"`  // ago
	FirstSeen      int64  `json:"first_seen_ms"` // ago
	Capability     uint16 `json:"capability"`
	BeaconInterval uint16 `json:"beacon_int"` // TU
	TSF            uint64 `json:"tsf_us"`     // timestamp of the last frame
	Beacons        uint32 `json:"beacons"`
	ProbeResps     uint32 `json:"probe_responses"`
	FromProbe      bool   `json:"from_probe_response"` // the last frame was a Probe Response
	Rates          Rates  `json:"rates"`
	DSChannel      uint8  `json:"ds_channel"` // 0: no DS Parameter Set
	HT             bool   `json:"ht"`         // HT Capabilities present
	HTCapInfo      uint16 `json:"ht_capabilities"`
	HTOper         bool   `json:"ht_operation"` // HT Operation present
	HTPrimary      uint8  `json:"ht_primary_channel"`
	HTSecondary    uint8  `json:"ht_secondary_offset"` // 0 none, 1 above, 3 below
	HTAnyWidth     bool   `json:"ht_any_width"`
	VHT            bool   `json:"vht"` // VHT Capabilities present
	VHTCapInfo     uint32 `json:"vht_capabilities"`
	VHTOper        bool   `json:"vht_operation"` // VHT Operation present
	VHTWidth       uint8  `json:"vht_width"`
	VHTSeg0        uint8  `json:"vht_center_seg0"`
	VHTSeg1        uint8  `json:"vht_center_seg1"`
	VHTBasicMCS    uint16 `json:"vht_basic_mcs"`
	RSN            bool   `json:"rsn"`
}

// Survey is what is known of one channel: the radio's figures as the scan
// table keeps them and airq's own counts.
type Survey struct {
	Freq       int    `json:"freq"`
	InUse      bool   `json:"in_use"`    // the operating channel
	Noise      int8   `json:"noise_dbm"` // valid if HasNoise
	HasNoise   bool   `json:"has_noise"`
	Active     uint64 `json:"active_time_us"`
	Busy       uint64 `json:"busy_time_us"`
	Rx         uint64 `json:"rx_time_us"`
	Tx         uint64 `json:"tx_time_us"`
	Dwell      uint64 `json:"dwell_us"` // airq's own listening time
	Visits     uint32 `json:"visits"`
	Beacons    uint32 `json:"beacons"` // heard on the channel, from any BSS
	ProbeResps uint32 `json:"probe_responses"`
	BSSes      int    `json:"bss_count"`
}

// BeaconsPerSecond returns the beacons heard per second of dwell.
func (s *Survey) BeaconsPerSecond() float64 {
	if s.Dwell == 0 {
		return 0
	}
	return float64(s.Beacons) / (float64(s.Dwell) / 1e6)
}

// Rates are Supported Rates octets (Supported then Extended Supported), as
// sent: 500 kbit/s units, the high bit marking a basic rate, and the HT
// and VHT membership selectors. The text form is iw's: "1.0* 2.0* 5.5 HT*".
type Rates []byte

// MarshalText prints the octets the way iw prints supported rates.
func (r Rates) MarshalText() ([]byte, error) { return r.AppendText(nil) }

// AppendText appends the octets the way iw prints supported rates.
func (r Rates) AppendText(b []byte) ([]byte, error) { return appendRateList(b, r), nil }

func appendRateList(b []byte, r []byte) []byte {
	for i, c := range r {
		if i > 0 {
			b = append(b, ' ')
		}
		v := c & 0x7f
		switch {
		case c&0x80 != 0 && v == ieee80211.SelectorVHTPhy:
			b = append(b, "VHT"...)
		case c&0x80 != 0 && v == ieee80211.SelectorHTPhy:
			b = append(b, "HT"...)
		default:
			b = strconv.AppendUint(b, uint64(v/2), 10)
			b = append(b, '.', '0'+5*(v&1)) // without fmt: a station dump's rates allocate nothing
		}
		if c&0x80 != 0 {
			b = append(b, '*')
		}
	}
	return b
}

// maxRates bounds a rate list: an element holds at most 255 octets.
const maxRates = 255

// UnmarshalText reads what MarshalText prints; "" is no rates (nil).
func (r *Rates) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*r = nil
		return nil
	}
	var out Rates
	for tok := range splitSpace(b) {
		if len(out) == maxRates {
			return fmt.Errorf("rates %q: more than %d", b, maxRates)
		}
		c, err := parseRate(tok)
		if err != nil {
			return fmt.Errorf("rates %q: %q: %w", b, tok, err)
		}
		out = append(out, c)
	}
	*r = out
	return nil
}

func splitSpace(b []byte) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		start := 0
		for i := 0; i <= len(b); i++ {
			if i == len(b) || b[i] == ' ' {
				if !yield(b[start:i]) {
					return
				}
				start = i + 1
			}
		}
	}
}

var errRate = errors.New("want a rate in Mbit/s like 5.5 or 54.0, '*' marking a basic rate, or HT* or VHT*")

func parseRate(t []byte) (byte, error) {
	var basic byte
	if n := len(t); n > 0 && t[n-1] == '*' {
		basic, t = 0x80, t[:n-1]
	}
	switch s := string(t); {
	case s == "HT" && basic != 0:
		return 0x80 | ieee80211.SelectorHTPhy, nil
	case s == "VHT" && basic != 0:
		return 0x80 | ieee80211.SelectorVHTPhy, nil
	}
	// N.0 or N.5, N without leading zeros.
	n := len(t)
	if n < 3 || t[n-2] != '.' || (t[n-1] != '0' && t[n-1] != '5') || (t[0] == '0' && n > 3) {
		return 0, errRate
	}
	v := 0
	for _, c := range t[:n-2] {
		if c < '0' || c > '9' {
			return 0, errRate
		}
		v = v*10 + int(c-'0')
		if v > 63 {
			return 0, errRate
		}
	}
	v = 2*v + int(t[n-1]-'0')/5
	if basic != 0 && (v == ieee80211.SelectorHTPhy || v == ieee80211.SelectorVHTPhy) {
		return 0, errRate // prints as HT* or VHT*
	}
	return basic | byte(v), nil
}
