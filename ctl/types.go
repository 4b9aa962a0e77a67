package ctl

import "github.com/airq/airq/counter"

// Status is the BSS, the core's counters and its beacon timing.
type Status struct {
	SSID           string `json:"ssid"`
	BSSID          MAC    `json:"bssid"`
	Channel        int    `json:"channel"`
	Freq           int    `json:"freq"`
	BeaconInterval int    `json:"beacon_int"`
	DTIMPeriod     int    `json:"dtim_period"`
	WMM            bool   `json:"wmm_enabled"`
	Scheduler      string `json:"scheduler"` // production or trace
	TSF            uint64 `json:"tsf_us"`    // time since beaconing started
	MaxStations    int    `json:"max_num_sta"`
	// What hostapd's STATUS reports of the BSS beside the above.
	HT               bool  `json:"ieee80211n"`
	VHT              bool  `json:"ieee80211ac"`
	SecondaryChannel int   `json:"secondary_channel"` // +1, -1 or 0 (20 MHz)
	Rates            Rates `json:"supported_rates"`   // the BSS's rates, 0x80 on basic ones
	NumNonERP        int   `json:"num_sta_non_erp"`   // associated 802.11b-only stations
	// The radio's protection counts, as hostapd's STATUS names them: its
	// associated stations without short slot time, without short
	// preamble; an 802.11b BSS heard (OLBC); its HT stations that cannot
	// receive greenfield, its stations without HT, its HT ones limited to
	// 20 MHz, those that set Forty MHz Intolerant (counted on 2.4 GHz
	// alone); a BSS without HT heard (OLBCHT); and the HT Operation
	// element's operation mode, 0 without HT.
	NumNoShortSlot     int    `json:"num_sta_no_short_slot_time"`
	NumNoShortPreamble int    `json:"num_sta_no_short_preamble"`
	OLBC               bool   `json:"olbc"`
	NumHTNoGF          int    `json:"num_sta_ht_no_gf"`
	NumNoHT            int    `json:"num_sta_no_ht"`
	NumHT20            int    `json:"num_sta_ht_20_mhz"`
	NumHT40Intolerant  int    `json:"num_sta_ht40_intolerant"`
	OLBCHT             bool   `json:"olbc_ht"`
	HTOpMode           uint16 `json:"ht_op_mode"`

	// What the BSS is, as an operator first asks. Security is open or
	// WPA2-Personal; KeyMgmt hostapd's wpa_key_mgmt names, empty when
	// open; PMF ieee80211w's off, optional or required. PHYMode is the
	// standard the BSS runs (802.11b, 802.11g, 802.11a; 802.11n with HT,
	// 802.11ac with VHT) and Width its channel: "20 MHz (no HT)" as iw
	// says it, else HT20, HT40+, HT40-, VHT20, VHT40, VHT80 or VHT160.
	Security string `json:"security"`
	KeyMgmt  string `json:"key_mgmt"`
	PMF      string `json:"pmf"`
	PHYMode  string `json:"phy_mode"`
	Width    string `json:"channel_width"`

	// Counters are the core's (package counter), each under its key, in
	// the text form and in JSON alike.
	Counters counter.Set `json:"-"`

	AirtimePending uint64 `json:"aql_pending_total_us"`
	InFlightFrames int    `json:"inflight_frames"`
	InFlightCap    int    `json:"inflight_per_ac"`
	Scanning       bool   `json:"scanning"` // background scanning is on

	// Beacon timing against the target beacon transmission times (TBTT).
	BeaconsEmitted uint64 `json:"beacons_emitted"`
	BeaconEmitSum  int64  `json:"beacon_emit_late_sum_us"`  // core emit time - TBTT, summed
	BeaconEmitMean int64  `json:"beacon_emit_late_mean_us"` // core emit time - TBTT
	BeaconEmitMax  int64  `json:"beacon_emit_late_max_us"`
	BeaconsEchoed  uint64 `json:"beacons_echoed"`
	BeaconEchoSum  int64  `json:"beacon_echo_late_sum_us"`  // TX-status echo time - TBTT, summed
	BeaconEchoMean int64  `json:"beacon_echo_late_mean_us"` // TX-status echo time - TBTT
	BeaconEchoMax  int64  `json:"beacon_echo_late_max_us"`
	BeaconsMissed  uint64 `json:"beacon_missed_intervals"` // TBTTs skipped: the core ran late

	// The BSS Load element's channel utilization (bss_load_update_period)
	// of the last period, 0 to 255, and its average over
	// chan_util_avg_period, as hostapd's STATUS shows them; 0 without.
	ChanUtil    int `json:"channel_utilization"`
	ChanUtilAvg int `json:"chan_util_avg"`
}

// Station is one entry of the station table: what `iw dev X station dump`
// shows, plus airq's scheduler and AQL state of the station.
type Station struct {
	Addr MAC    `json:"mac"`
	AID  uint16 `json:"aid"`
	// BSS is the name of the BSS the station is of ("" when the daemon
	// names none).
	BSS           string `json:"bss"`
	Associated    bool   `json:"associated"` // false: authenticated only, or pending
	State         string `json:"state"`      // StateAuthenticated, StatePending or StateAssociated
	WMM           bool   `json:"wmm"`
	ShortPreamble bool   `json:"short_preamble"`
	ListenInt     uint16 `json:"listen_interval"`
	Capability    uint16 `json:"capability"` // of its (re)association request
	// SupportedRates are the BSS's rates it announced, 0x80 on the BSS's
	// basic ones.
	SupportedRates Rates `json:"supported_rates"`
	Authorized     bool  `json:"authorized"` // the controlled port is open
	MFP            bool  `json:"mfp"`        // management frame protection negotiated (802.11w)
	// AKM and Cipher are what a WPA2 station negotiated, hostapd's names
	// (WPA-PSK, CCMP); empty on an open network. SAEGroup is a WPA3
	// station's SAE group (19, 20, 21), SAEMethod how its password
	// element was derived (hunting-and-pecking or hash-to-element).
	AKM      string `json:"akm,omitempty"`
	Cipher   string `json:"pairwise_cipher,omitempty"`
	KeyID    string `json:"keyid,omitempty"` // the keyid= of the wpa_psk_file line it used
	SAEGroup uint16 `json:"sae_group,omitempty"`
	// SAEAuthGroup is the group of the SAE exchange the station
	// authenticated with (hostapd's STA sae_group=); 0 when it
	// authenticated otherwise, Open System with a cached PMKSA among them.
	// (Beside SAEGroup, in its padding: the record keeps its size.)
	SAEAuthGroup uint16 `json:"sae_auth_group,omitempty"`
	SAEMethod    string `json:"sae_method,omitempty"`
	// PTKState and GroupState are its authenticator machines' states,
	// hostapd's names (PTKINITDONE, IDLE); empty on an open network.
	PTKState   string `json:"ptk_state,omitempty"`
	GroupState string `json:"ptk_group_state,omitempty"`
	InactiveMs int64  `json:"inactive_ms"`
	// Polled: silent for the inactivity timeout, it was sent a poll whose
	// ACK it still owes; without one it is deauthenticated.
	Polled      bool    `json:"inactivity_polled"`
	ConnectedMs int64   `json:"connected_ms"`   // since association; 0 if not associated
	Signal      int8    `json:"signal_dbm"`     // of the last frame received; 0 if none
	SignalAvg   int8    `json:"signal_avg_dbm"` // mac80211's moving average (weight 1/8); 0 if none
	TxBitrate   int     `json:"tx_bitrate_kbps"`
	TxRate      Bitrate `json:"tx_bitrate"` // the rate data goes at now, in iw's form
	// ExpectedThroughput is the rate selector's expected throughput at
	// its best rate (mac80211's, from minstrel_ht); 0 without one.
	ExpectedThroughput uint32 `json:"expected_throughput_kbps"`
	PHYMode            string `json:"phy_mode"`     // what airq sends it: legacy, HT or VHT
	HEAnnounced        bool   `json:"he_announced"` // the station offers HE, which airq does not send

	// The BSS's parameters, which mac80211 reports with each station (the
	// flags as the BSS uses them now, as its beacons announce them).
	DTIMPeriod       int  `json:"dtim_period"`
	BeaconInterval   int  `json:"beacon_int"` // TU
	CTSProtection    bool `json:"cts_protection"`
	BSSShortPreamble bool `json:"bss_short_preamble"`
	ShortSlotTime    bool `json:"short_slot_time"`

	RxBytes          uint64  `json:"rx_bytes"`
	RxPackets        uint64  `json:"rx_packets"`
	TxBytes          uint64  `json:"tx_bytes"`
	TxPackets        uint64  `json:"tx_packets"`
	TxRetries        uint64  `json:"tx_retries"`
	TxFailed         uint64  `json:"tx_failed"`
	TxNoStatus       uint64  `json:"tx_no_status"`
	RxDuplicates     uint64  `json:"rx_duplicates"`
	RxDropMisc       uint64  `json:"rx_drop_misc"` // data before association
	TxQueueDrops     uint64  `json:"tx_queue_drops"`
	TxAirtime        uint64  `json:"tx_airtime_us"`
	RxAirtime        uint64  `json:"rx_airtime_us"`
	RxBitrate        int     `json:"rx_bitrate_kbps"` // of the last data frame, 0 if unknown
	RxRate           Bitrate `json:"rx_bitrate"`      // the same in iw's form; "(unknown)"
	AirtimeWeight    uint16  `json:"airtime_weight"`
	AirtimeDeficit   PerAC   `json:"airtime_deficit_us"` // stored deficit, pending not subtracted
	AQLPending       PerAC   `json:"aql_pending_us"`
	AQLLimitLow      PerAC   `json:"aql_limit_low_us"` // limits in force for the station
	AQLLimitHigh     PerAC   `json:"aql_limit_high_us"`
	InFlight         PerAC   `json:"inflight_frames"`
	ACAirtime        PerAC   `json:"tx_airtime_ac_us"` // charged by the scheduler
	QueueFramesTotal int     `json:"queued_frames"`

	AMSDUs         uint64  `json:"tx_amsdus"`          // A-MSDUs sent
	AMSDUSubframes uint64  `json:"tx_amsdu_subframes"` // MSDUs they carried
	AMSDUMean      float64 `json:"tx_amsdu_subframes_mean"`
	AMSDUBytes     uint64  `json:"tx_amsdu_bytes"` // 802.3 bytes they carried
}

// The states of a station in the table.
const (
	StateAuthenticated = "authenticated" // authenticated, not associated
	// StatePending: the association was accepted and its AID reserved; the
	// station is associated once it acknowledges the response.
	StatePending    = "pending"
	StateAssociated = "associated"
)

// AQL is the radio's Airtime Queue Limit state, the content of mac80211's
// aql_txq_limit, aql_threshold and aql_pending debugfs files.
type AQL struct {
	Low          PerAC  `json:"limit_low_us"`
	High         PerAC  `json:"limit_high_us"`
	Threshold    uint32 `json:"threshold_us"`
	Pending      PerAC  `json:"pending_us"`
	PendingTotal uint64 `json:"pending_total_us"`
	InFlight     PerAC  `json:"inflight_frames"`
	FrameCap     PerAC  `json:"inflight_cap"`
}

// Scheduler is the airtime scheduler's state and counters.
type Scheduler struct {
	Mode         string `json:"mode"`
	BacklogFrame int    `json:"backlog_frames"`
	BacklogBytes int    `json:"backlog_bytes"`
	Collisions   uint64 `json:"flow_collisions"`
	// AC is indexed by ieee80211.AC; in the text form each is a section.
	AC [4]SchedulerAC `json:"ac"`
}

// SchedulerAC is one access category's round state and counters
// (txq.ACStats).
type SchedulerAC struct {
	AC             AC     `json:"ac"`
	Round          uint64 `json:"round"`
	Open           bool   `json:"open"`
	Listed         int    `json:"listed"`
	RoundsOpened   uint64 `json:"rounds_opened"`
	RoundsClosed   uint64 `json:"rounds_closed"`
	Selections     uint64 `json:"selections"`
	IdleSelections uint64 `json:"idle_selections"`
	Skipped        uint64 `json:"skipped"`
	SkippedStale   uint64 `json:"skipped_stale"`
	Airtime        uint64 `json:"airtime_us"`
	DropsQueueFull uint64 `json:"drops_queue_full"`
	DropsOverlimit uint64 `json:"drops_overlimit"`
	DropsOvermem   uint64 `json:"drops_overmemory"`
	DropsFlush     uint64 `json:"drops_flush"`
	CoDelDrops     uint64 `json:"codel_drops"`
	CoDelMarks     uint64 `json:"codel_marks"`
}
