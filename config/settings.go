package config

import (
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/scan"
	"github.com/airq/airq/tap"
)

// Settings are airqd's configuration as the file and the command line state
// it. The keys write here, and so do the flags that override them; what
// spans several settings and the flags alone is checked by the daemon, which
// then turns the settings into the core's, the radio's and the shell's
// options.
type Settings struct {
	Radio      string // nl80211 (a real phy) or sim
	Phy        string // the wiphy, such as phy0
	Ifname     string // the monitor interface airqd creates
	Interface  string // hostapd's interface=: the phy of that interface, when Phy is not given
	Tap        string // the TAP interface of the stations' traffic
	Bridge     string // the bridge the TAP joins; "" for none
	TapOffload tap.Offload
	Nice       int // the datapath threads' nice value
	// MemoryLimitMB is the Go runtime's soft memory limit in MiB; 0
	// derives it from the core's tables and pools (cmd/airqd).
	MemoryLimitMB int
	Control       string
	// CtrlInterface is hostapd's ctrl_interface directory ("": no hostapd
	// control socket); CtrlGroup its ctrl_interface_group (LookupGroup).
	CtrlInterface string
	CtrlGroup     string
	Metrics       string
	Pcap          string
	LogLevel      string // debug, info, warn or error

	BSSID   string // "" for the phy's address
	Channel int    // 0: selected at start-up (ACS)
	HWMode  string // hw_mode: a, b, g; "" when the file has none
	Country string // ISO 3166 code; "" keeps the kernel's domain
	// IEEE80211D advertises the country in beacons and probe responses
	// (the Country element, hostapd's ieee80211d); it needs Country.
	IEEE80211D bool

	// Core holds the keys that are the core's own settings as they are:
	// SSID, beacon and DTIM periods, rates, station limits, the access
	// lists, AQL limits, WMM and so on.
	Core          ap.Config
	AQLThreshold  uint // µs; to Core.AQL.Threshold once checked
	AirtimeWeight uint // to Core.AirtimeWeight once checked

	PHY  PHY
	Scan Scan
	ACS  ACS
	Sim  Sim

	// Airtime is the radio's airtime policy, BSSAirtime the first BSS's
	// airtime keys (airtime.go).
	Airtime    Airtime
	BSSAirtime BSSAirtime
	// BSSes are the file's bss= sections, the radio's other BSSes, in
	// the file's order (bss.go); the settings above are the first BSS's.
	BSSes []BSS
}

// PHY are the HT/VHT and A-MSDU settings (hostapd's ieee80211n/ac,
// ht_capab, vht_capab, vht_oper_*; airq's amsdu).
type PHY struct {
	HT, VHT bool
	Width   int    // MHz; 0: from HT40 or 80 with VHT
	HT40    string // the secondary channel: "+", "-" or ""
	// The short guard interval per width: ht_capab's [SHORT-GI-20] and
	// [SHORT-GI-40], vht_capab's [SHORT-GI-80] and [SHORT-GI-160].
	SGI20, SGI40, SGI80, SGI160 bool
	LDPC                        bool
	MaxMPDU                     int // vht_capab's [MAX-MPDU-7991] or [MAX-MPDU-11454]; 0: 3895
	AMSDU                       int // octets; 0: no aggregation
	Center                      int // vht_oper_centr_freq_seg0_idx; 0: not given
	// NoScan starts a 40 MHz channel on 2.4 GHz without the 20/40 MHz
	// coexistence check (noscan=1, OpenWrt's hostapd key).
	NoScan bool
	// OBSSInterval is obss_interval, seconds (bss.PHY.OBSSInterval).
	OBSSInterval int
	// HTCapAsked are the HT Capabilities bits of ht_capab's flags airq
	// does not act on, which the radio must have, as hostapd checks.
	HTCapAsked  uint16
	VHTCapAsked uint32 // the same of vht_capab
}

// Scan is the background scan (airq's scan keys) and the planner's bounds.
type Scan struct {
	On         bool
	Mode       string // continuous or periodic
	Period     time.Duration
	MissBeacon bool
	Budget     time.Duration // the longest trip
	Guard      time.Duration // margin a trip keeps before the next beacon
	// MaxDefers and MaxDeferTime bound how long a due trip waits while the
	// core is busy; MaxDefers 0 never waits.
	MaxDefers    int
	MaxDeferTime time.Duration
}

// Bounds puts the bounds into the planner's configuration, whose zero
// MaxDefers is the default and a negative one never defers.
func (s Scan) Bounds(c *scan.Config) {
	c.Budget, c.Guard, c.MaxDefers, c.MaxDeferTime = s.Budget, s.Guard, s.MaxDefers, s.MaxDeferTime
	if s.MaxDefers == 0 {
		c.MaxDefers = -1
	}
}

// Sim is the simulated radio of radio=sim (airq's sim_* keys).
type Sim struct {
	Stations     int           // default stations, when there is no scenario
	Join         time.Duration // between stations joining
	Scenario     string        // a scenario file, or the name of a built-in one
	Retune       time.Duration // the radio's channel change time
	RetuneJitter time.Duration // added to each retune: a uniform draw below it
}

// ACS is automatic channel selection (hostapd's acs_* keys).
type ACS struct {
	ExcludeDFS bool
	NumScans   int
	Bias       string // acs_chan_bias, such as "1:0.8 6:0.8 11:0.8"; see ParseChanBias
	// ChanList and FreqList restrict the candidates (hostapd's chanlist,
	// channel numbers, and freqlist, MHz); nil: no restriction.
	ChanList, FreqList []Range
}
