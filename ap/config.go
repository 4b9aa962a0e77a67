package ap

import (
	"fmt"
	"slices"
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/txq"
)

// Config is what the core needs to run one BSS.
type Config struct {
	// Name is the BSS's name: its bss= section's, its TAP's and its
	// control socket's.
	Name           string
	SSID           string
	BSSID          ieee80211.MAC
	Channel        int   // operating channel number
	Freq           int   // MHz; derived from Channel when zero
	BeaconInterval int   // TU (1024 µs); default 100
	DTIMPeriod     int   // beacons per DTIM; default 2
	MaxStations    int   // 1..2007; default 2007
	Rates          []int // supported rates in kbit/s; default by band
	BasicRates     []int // subset of Rates every station must support; default by band
	QueueFrames    int   // frames per TXQ (station TID); default 1024
	InFlightPerAC  int   // data frames handed to the radio and not yet completed, per AC; default 64
	EchoTimeout    time.Duration
	// InactivityTimeout is how long a silent station is kept before it is
	// polled with a Null frame (hostapd's ap_max_inactivity); default 300 s.
	InactivityTimeout time.Duration
	WMM               bool // advertise WMM and send QoS data to WMM stations
	// WMMParams are the EDCA parameters stations get in the WMM Parameter
	// element (hostapd's wmm_ac_*); the zero value is hostapd's defaults
	// (ieee80211.DefaultEDCA). They are the stations' own: airq's frames
	// contend with what the radio programs for a monitor interface. They
	// are the radio's, as hostapd's, in every BSS's element.
	WMMParams [ieee80211.NumACs]ieee80211.EDCA

	// Admission timers (admit.go). AuthTimeout forgets a station that
	// authenticated but did not associate, or whose association response
	// it never acknowledged, after this long; default 5 s.
	AuthTimeout time.Duration
	// AssocResponseTimeout bounds how long an accepted association holds
	// its AID waiting for the response's TX status (or, that echo lost,
	// for the station's first frame); default 3 s, beyond the echo
	// timeout, so that a lost echo is noticed first.
	AssocResponseTimeout time.Duration
	// StatusWait is how long the handshake waits for a response's TX
	// status before the station's next frame (an association request
	// after the authentication, data after the association) is taken as
	// proof that it has the response; earlier, such frames are ignored.
	// Echoes normally take microseconds; default 50 ms.
	StatusWait time.Duration
	// SenderMemory is how long a MAC that sent a probe request, or data
	// while associated, is known: its authentication and association
	// responses then do not compete with a flood of new MACs for the
	// reply airtime; default 60 s.
	SenderMemory time.Duration
	// IdleRelease is how long a station may go without a data frame to it
	// before its rate table (about 20 KiB) is given back; its next frame
	// builds a new one; default 10 s.
	IdleRelease time.Duration

	// Scheduler selects the TXQ scheduler's algorithm; LegacyRoundReset
	// reproduces mainline's round reset (trace mode only, for studies).
	Scheduler        txq.Mode
	LegacyRoundReset bool
	// AQL are the Airtime Queue Limits; the zero value means mac80211's
	// defaults (5000/12000 µs per AC, 24000 µs threshold).
	AQL aql.Limits
	// AirtimeWeight is the default DRR weight of a new station; 0 means 256.
	AirtimeWeight uint16
	// Airtime shares the air between the radio's BSSes by policy
	// (airtime_policy.go): hostapd's airtime_mode and airq's hard cap.
	Airtime Airtime

	// Holder is the interface that carries the BSS's address, so that the
	// hardware ACKs its frames (the monitor for the first BSS, its ACK
	// holder for the others), TAP its wired side's interface: the core
	// shows them (airqctl dev) and uses neither.
	Holder, TAP string

	// ReplyAirtime is the share of airtime management replies to others'
	// frames may use (probe, auth and association responses, deauths to
	// strangers), split in classes so that a flood in one cannot silence
	// the others (replies.go), and evenly among the radio's BSSes;
	// default 0.1.
	ReplyAirtime float64
	// BeaconRate is the beacon's rate in kbit/s; default the lowest basic rate.
	BeaconRate int
	// ShortPreamble lets every BSS of the radio announce short preambles
	// on 2.4 GHz while each associated station has them (hostapd's
	// preamble=1); false, hostapd's default, announces the long preamble
	// (no Short Preamble bit, Barker_Preamble_Mode in the ERP element).
	ShortPreamble bool
	// APIsolate keeps the first BSS's stations from reaching each other:
	// their frames go to its wired side instead (hostapd's ap_isolate);
	// each BSS beside it has its own (BSSConfig.APIsolate).
	APIsolate bool
	// PHY is what the radio delivers beyond legacy rates (HT, VHT, width):
	// its channel, and what each BSS advertises and uses unless it turns
	// it off.
	PHY bss.PHY
	// NoHT and NoVHT turn HT (and with it VHT), or VHT, off in the first
	// BSS, whatever PHY says (hostapd's disable_11n and disable_11ac): it
	// advertises neither's elements and its stations get legacy (HT)
	// rates and no A-MSDUs (without HT); the radio's channel is PHY's.
	NoHT, NoVHT bool
	// AMSDU is the longest A-MSDU body, in octets, airq builds for stations
	// that take them (HT/VHT); 0 turns aggregation off. The monitor
	// interface's MTU must hold it with the radiotap and 802.11 headers.
	AMSDU int
	// Country, when set, is advertised in beacons and probe responses; it
	// must be what the kernel applied (the radio follows that, not us).
	Country *Country
	// Scan, when set, turns on background scanning.
	Scan *ScanConfig
	// ACS, with Channel and Freq zero, picks the channel at start-up
	// (hostapd's channel=0); see ACSConfig.
	ACS *ACSConfig
	// Coex, on a 2.4 GHz 40 MHz channel, checks at start that the
	// neighbours permit 40 MHz (coex.go); nil starts at 40 MHz unchecked
	// (hostapd's noscan=1 in OpenWrt).
	Coex *CoexConfig
	// HideSSID sends beacons with an empty SSID and answers only probes
	// that name the SSID (hostapd's ignore_broadcast_ssid=1).
	HideSSID bool
	// MulticastToUnicast sends the first BSS's group-addressed ARP, IPv4
	// and IPv6 frames as unicast copies to each of its stations, at each
	// station's rate; each BSS beside it has its own
	// (BSSConfig.MulticastToUnicast).
	MulticastToUnicast bool
	// ACL are the MAC access lists (hostapd's macaddr_acl, accept_mac_file
	// and deny_mac_file); the zero value admits every station. SetACL
	// replaces them live.
	ACL bss.ACL
	// RSN, when set, makes the BSS WPA2-Personal (rsn.go); nil is an
	// open network.
	RSN *RSNConfig
	// Advert are beacons' and probe responses' optional announcements
	// (advert.go): UTF-8 SSID, spectrum management, BSS Load.
	Advert bss.Advert
	// StartDisabled makes Start leave the BSS off (no beacon, nothing
	// answered) until Enable: a daemon whose BSS is added later, as
	// through hostapd's global socket.
	StartDisabled bool

	// BSSes are the networks the radio carries beside the first (whose
	// keys are this Config's), in order; at most MaxBSSes in all.
	BSSes []BSSConfig
}

const maxAID = 2007

// defaultInactivity is hostapd's AP_MAX_INACTIVITY, a BSS's
// ap_max_inactivity unless set.
const defaultInactivity = 300 * time.Second

// Resolve returns the configuration with defaults filled in, or an error
// naming the first invalid field and the accepted values; New does the same.
func (c Config) Resolve() (Config, error) { return c.withDefaults() }

// withDefaults fills zero fields and validates; errors name the field and
// the accepted values.
func (c Config) withDefaults() (_ Config, err error) {
	if c.RSN != nil {
		if err := c.RSN.validate(); err != nil {
			return c, err
		}
	}
	if err := c.Airtime.validate(); err != nil {
		return c, err
	}
	if c.acsPending() {
		return c.withACS() // acs.go: the channel is chosen at Start
	}
	if l := len(c.SSID); l < 1 || l > 32 {
		return c, fmt.Errorf("ssid: length %d, want 1 to 32 bytes", l)
	}
	if c.BSSID.IsZero() || c.BSSID.IsMulticast() {
		return c, fmt.Errorf("bssid: %s is not a unicast address", c.BSSID)
	}
	if c.Freq == 0 && validChannel(c.Channel) {
		band := ieee80211.Band2GHz
		if c.Channel > 14 {
			band = ieee80211.Band5GHz
		}
		c.Freq = ieee80211.ChannelToFreq(c.Channel, band)
	}
	if c.Freq == 0 {
		return c, fmt.Errorf("channel: %d is not a 2.4 GHz (1-14) or 5 GHz (36-64, 100-144, 149-177 in steps of 4) channel", c.Channel)
	}
	if c.Channel == 0 {
		c.Channel = ieee80211.FreqToChannel(c.Freq)
	}
	if c.BeaconInterval == 0 {
		c.BeaconInterval = 100
	}
	if c.BeaconInterval < 15 || c.BeaconInterval > 65535 {
		return c, fmt.Errorf("beacon_int: %d TU, want 15 to 65535", c.BeaconInterval)
	}
	if c.DTIMPeriod == 0 {
		c.DTIMPeriod = 2
	}
	if c.DTIMPeriod < 1 || c.DTIMPeriod > 255 {
		return c, fmt.Errorf("dtim_period: %d, want 1 to 255", c.DTIMPeriod)
	}
	if c.MaxStations == 0 {
		c.MaxStations = maxAID
	}
	if c.MaxStations < 1 || c.MaxStations > maxAID {
		return c, fmt.Errorf("max_num_sta: %d, want 1 to %d", c.MaxStations, maxAID)
	}
	if c.Rates == nil {
		c.Rates, c.BasicRates = defaultRates(c.Freq)
	}
	if err := checkRates(c.Rates, c.BasicRates); err != nil {
		return c, err
	}
	if c.QueueFrames == 0 {
		c.QueueFrames = 1024
	}
	if c.QueueFrames < 1 || c.QueueFrames > poolSlabs {
		return c, fmt.Errorf("queue_frames: %d, want 1 to %d", c.QueueFrames, poolSlabs)
	}
	if c.InFlightPerAC == 0 {
		c.InFlightPerAC = aql.DefaultFrameCap
	}
	if c.InFlightPerAC < 1 || c.InFlightPerAC > 1024 {
		return c, fmt.Errorf("inflight_per_ac: %d, want 1 to 1024", c.InFlightPerAC)
	}
	if c.AQL == (aql.Limits{}) {
		c.AQL = aql.DefaultLimits()
	}
	if c.AirtimeWeight == 0 {
		c.AirtimeWeight = txq.DefaultWeight
	}
	if c.WMMParams, err = bss.ValidWMM(c.WMMParams); err != nil {
		return c, err
	}
	if err := c.ACL.Validate(); err != nil {
		return c, err
	}
	if err := c.Advert.Validate(); err != nil {
		return c, err
	}
	if c.PHY, err = c.PHY.Validate(c.Channel, c.Freq); err != nil {
		return c, err
	}
	if c.AMSDU != 0 && (c.AMSDU < 3839 || c.AMSDU > 11454-30) {
		return c, fmt.Errorf("amsdu: %d octets, want 0 (off) or 3839 to 11424", c.AMSDU)
	}
	if c.Country != nil && (len(c.Country.Alpha2) != 2 || len(c.Country.Subbands) == 0) {
		return c, fmt.Errorf("country_code: %q with %d subbands, want two letters and the band's channels", c.Country.Alpha2, len(c.Country.Subbands))
	}
	if c.ReplyAirtime == 0 {
		c.ReplyAirtime = 0.1
	}
	if c.ReplyAirtime < 0.01 || c.ReplyAirtime > 1 {
		return c, fmt.Errorf("reply_airtime: %g, want 0.01 to 1", c.ReplyAirtime)
	}
	if c.BeaconRate != 0 && !slices.Contains(c.BasicRates, c.BeaconRate) {
		return c, fmt.Errorf("beacon_rate: %d kbit/s is not one of basic_rates %v", c.BeaconRate, c.BasicRates)
	}
	if c.EchoTimeout == 0 {
		c.EchoTimeout = time.Second
	}
	if c.InactivityTimeout == 0 {
		c.InactivityTimeout = defaultInactivity
	}
	return c.withTimers()
}

// Timer is one of the admission timers of Config: its configuration key
// (package config's), default and accepted range.
type Timer struct {
	Key      string
	Default  time.Duration
	Min, Max time.Duration
	Field    func(c *Config) *time.Duration
	// BSSField is a BSS's own value of it beside the first (BSSConfig);
	// nil for the radio's timers.
	BSSField func(x *BSSConfig) *time.Duration
}

// Timers lists the admission timers, for the configuration file's keys
// and their checks; Config's fields say what each does.
var Timers = []Timer{
	{"auth_timeout", 5 * time.Second, 100 * time.Millisecond, time.Hour, func(c *Config) *time.Duration { return &c.AuthTimeout },
		func(x *BSSConfig) *time.Duration { return &x.AuthTimeout }},
	{"assoc_resp_timeout", 3 * time.Second, 10 * time.Millisecond, time.Minute, func(c *Config) *time.Duration { return &c.AssocResponseTimeout },
		func(x *BSSConfig) *time.Duration { return &x.AssocResponseTimeout }},
	{"status_wait", 50 * time.Millisecond, time.Millisecond, 10 * time.Second, func(c *Config) *time.Duration { return &c.StatusWait }, nil},
	{"sender_memory", time.Minute, time.Second, 24 * time.Hour, func(c *Config) *time.Duration { return &c.SenderMemory }, nil},
	{"idle_release", 10 * time.Second, 100 * time.Millisecond, 24 * time.Hour, func(c *Config) *time.Duration { return &c.IdleRelease }, nil},
}

// fill sets a zero *v to the timer's default and checks its range; the
// error names the configuration key.
func (t *Timer) fill(v *time.Duration) error {
	if *v == 0 {
		*v = t.Default
	}
	if *v < t.Min || *v > t.Max {
		return fmt.Errorf("%s: %v, want %v to %v", t.Key, *v, t.Min, t.Max)
	}
	return nil
}

// withTimers fills and checks the admission timers; errors name the
// configuration keys.
func (c Config) withTimers() (Config, error) {
	for i := range Timers {
		if err := Timers[i].fill(Timers[i].Field(&c)); err != nil {
			return c, err
		}
	}
	c.BSSes = slices.Clone(c.BSSes) // defaults are filled in: not the caller's
	return c, c.checkBSSes()
}

// Country is a Country element: the code and the subbands of the
// operating band with their power limits.
type Country struct {
	Alpha2   string
	Subbands []ieee80211.CountryTriplet
}

func validChannel(ch int) bool {
	switch {
	case ch >= 1 && ch <= 14:
		return true
	case ch >= 36 && ch <= 64, ch >= 100 && ch <= 144:
		return ch%4 == 0
	case ch >= 149 && ch <= 177:
		return ch%4 == 1
	}
	return false
}

func defaultRates(freq int) (rates, basic []int) {
	if freq < 3000 {
		return []int{1000, 2000, 5500, 11000, 6000, 9000, 12000, 18000, 24000, 36000, 48000, 54000},
			[]int{1000, 2000, 5500, 11000}
	}
	return []int{6000, 9000, 12000, 18000, 24000, 36000, 48000, 54000}, []int{6000, 12000, 24000}
}

var validRates = map[int]bool{1000: true, 2000: true, 5500: true, 11000: true, 6000: true, 9000: true,
	12000: true, 18000: true, 24000: true, 36000: true, 48000: true, 54000: true}

func checkRates(rates, basic []int) error {
	if len(rates) == 0 || len(rates) > 12 {
		return fmt.Errorf("supported_rates: %d rates, want 1 to 12", len(rates))
	}
	have := map[int]bool{}
	for _, r := range rates {
		if !validRates[r] {
			return fmt.Errorf("supported_rates: %d kbit/s is not an 802.11b/g/a rate (1000 2000 5500 11000 6000 9000 12000 18000 24000 36000 48000 54000)", r)
		}
		have[r] = true
	}
	if len(basic) == 0 {
		return fmt.Errorf("basic_rates: empty, want at least one of the supported rates")
	}
	for _, r := range basic {
		if !have[r] {
			return fmt.Errorf("basic_rates: %d kbit/s is not in supported_rates", r)
		}
	}
	return nil
}

// SetDefaultAirtimeWeight changes the weight stations associating from now
// on start with (Config.AirtimeWeight); stations already associated keep
// theirs. 0 means 256.
func (a *AP) SetDefaultAirtimeWeight(w uint16) {
	if w == 0 {
		w = txq.DefaultWeight
	}
	a.cfg.AirtimeWeight = w
	a.airtimeDefault(w)
}
