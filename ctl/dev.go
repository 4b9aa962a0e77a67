package ctl

import (
	"fmt"
	"strings"
)

// Dev is one of the radio's BSSes as `iw dev` lists an interface, with
// airq's counters of it: airqctl dev.
type Dev struct {
	Name  string `json:"name"`  // the BSS's name: its bss= section's, its control socket's
	Index int    `json:"index"` // the radio's BSS number: 0 is the first
	BSSID MAC    `json:"addr"`
	SSID  string `json:"ssid"`
	// Hidden: its beacons carry an empty SSID (ignore_broadcast_ssid).
	Hidden bool `json:"hidden"`
	// Security, KeyMgmt and PMF are its own RSN's, as status's are the
	// first BSS's: open, WPA2-Personal, WPA3-Personal or the WPA2/WPA3
	// transition; hostapd's wpa_key_mgmt names; off, optional or required.
	Security string `json:"security"`
	KeyMgmt  string `json:"key_mgmt"`
	PMF      string `json:"pmf"`
	Channel  int    `json:"channel"`
	Freq     int    `json:"freq"`
	Width    string `json:"width"` // as iw prints it: "20 MHz (no HT)", "20 MHz", "40 MHz", "80 MHz"
	// WMM, HT and VHT are what the BSS advertises and serves its stations
	// with (the radio's less its wmm_enabled=0, disable_11n,
	// disable_11ac); PHYMode names the standard they make: 802.11ac,
	// 802.11n, else the band's legacy one (802.11a, g or b).
	WMM     bool   `json:"wmm"`
	HT      bool   `json:"ht"`
	VHT     bool   `json:"vht"`
	PHYMode string `json:"phy_mode"`
	// Holder is the interface that carries the BSS's address, so that
	// the hardware ACKs its frames: the monitor for the first BSS, its ACK
	// holder for the others; "" when the daemon did not say.
	Holder string `json:"holder"`
	TAP    string `json:"tap"` // its wired side's interface; "" for none
	// Stations are its associated stations, Pending those whose
	// association response awaits its acknowledgement, Authenticated the
	// authenticated only.
	Stations      int `json:"stations"`
	Pending       int `json:"pending"`
	Authenticated int `json:"authenticated"`

	// Its admission (bss.Counts).
	ProbeResponses uint64 `json:"probe_responses"`
	AuthResponses  uint64 `json:"auth_responses"`
	AssocResponses uint64 `json:"assoc_responses"`
	Associations   uint64 `json:"associations"`
	Deauths        uint64 `json:"deauths"`
	ACLDenied      uint64 `json:"acl_denied"`

	// Its stations' traffic since the radio started, those that left
	// included: what `iw station dump` shows of each, summed.
	RxBytes   uint64 `json:"rx_bytes"`
	RxPackets uint64 `json:"rx_packets"`
	TxBytes   uint64 `json:"tx_bytes"`
	TxPackets uint64 `json:"tx_packets"`
	TxRetries uint64 `json:"tx_retries"`
	TxFailed  uint64 `json:"tx_failed"`
	// WiredIn are the frames from its wired side (its TAP), WiredOut
	// those the core sent to it.
	WiredIn  uint64 `json:"wired_in"`
	WiredOut uint64 `json:"wired_out"`

	// The watch for missing ACKs: unicast frames to the BSSID from the
	// air, those of them with Retry set, and the frames seen so often that
	// nobody ACKed them (a BSSID the hardware does not answer).
	AckFrames     uint64 `json:"ack_watch_frames"`
	AckRetries    uint64 `json:"ack_watch_retries"`
	AckUnanswered uint64 `json:"ack_missing"`
}

// maxDevs bounds a reply's dev sections: a radio's BSSes.
const maxDevs = 8

// maxDevName is IFNAMSIZ less its NUL: a BSS's name is an interface's.
const maxDevName = 15

// parseDev parses "dev" (every BSS) and "dev NAME station ...": a station
// request for the BSS named NAME alone, as iw's "dev NAME station dump".
func parseDev(f []string) (Request, error) {
	if len(f) == 1 {
		return Request{Op: OpDev}, nil
	}
	name := f[1]
	if len(name) > maxDevName || strings.ContainsAny(name, "/=\"") {
		return Request{}, fmt.Errorf("dev: name %q: want an interface name of 1 to %d characters", name, maxDevName)
	}
	if len(f) < 3 || f[2] != "station" {
		return Request{}, fmt.Errorf("dev %s: want station dump, station get MAC, station get MAC rates, station set MAC airtime_weight N or station del MAC after the name", name)
	}
	r, err := parseStation(f[2:])
	if err != nil {
		return Request{}, fmt.Errorf("dev %s: %w", name, err)
	}
	r.Dev = name
	return r, nil
}

// AppendDevs prints the BSSes as `iw dev` prints a phy's interfaces, then
// airq's counters of each in the phrasing of iw's station lines.
func AppendDevs(b []byte, devs []Dev) []byte {
	for i := range devs {
		b = devs[i].appendIW(b)
	}
	return b
}

func (d *Dev) appendIW(b []byte) []byte {
	b = fmt.Appendf(b, "Interface %s\n\tbss index %d\n\taddr %s\n", d.Name, d.Index, d.BSSID)
	if d.Hidden {
		b = fmt.Appendf(b, "\tssid %s (hidden)\n", d.SSID)
	} else {
		b = fmt.Appendf(b, "\tssid %s\n", d.SSID)
	}
	b = fmt.Appendf(b, "\ttype AP\n\tchannel %d (%d MHz), width: %s\n", d.Channel, d.Freq, d.Width)
	b = fmt.Appendf(b, "\tphy %s, wmm %s\n", d.phyName(), yes(d.WMM))
	if d.KeyMgmt == "" {
		b = fmt.Appendf(b, "\tsecurity %s, pmf %s\n", d.Security, d.PMF)
	} else {
		b = fmt.Appendf(b, "\tsecurity %s (%s), pmf %s\n", d.Security, d.KeyMgmt, d.PMF)
	}
	b = fmt.Appendf(b, "\taddress held by %s\n\ttap %s\n", orNone(d.Holder), orNone(d.TAP))
	b = fmt.Appendf(b, "\tstations %d associated, %d pending, %d authenticated\n", d.Stations, d.Pending, d.Authenticated)
	b = fmt.Appendf(b, "\tprobe responses %d, auth responses %d, assoc responses %d, associations %d, deauths %d, acl denied %d\n",
		d.ProbeResponses, d.AuthResponses, d.AssocResponses, d.Associations, d.Deauths, d.ACLDenied)
	b = fmt.Appendf(b, "\trx bytes %d, rx packets %d, tx bytes %d, tx packets %d, tx retries %d, tx failed %d\n",
		d.RxBytes, d.RxPackets, d.TxBytes, d.TxPackets, d.TxRetries, d.TxFailed)
	b = fmt.Appendf(b, "\twired in %d frames (from its tap), out %d frames (to its tap)\n", d.WiredIn, d.WiredOut)
	b = fmt.Appendf(b, "\tack watch: %d frames, %d retries, %d unacknowledged\n", d.AckFrames, d.AckRetries, d.AckUnanswered)
	if d.AckUnanswered > 0 {
		b = fmt.Appendf(b, "\tWARNING: frames to %s went unacknowledged: the hardware may not ACK this address\n", d.BSSID)
	}
	return b
}

// phyName is the standard the BSS runs and what it adds to legacy
// rates: "802.11ac (HT, VHT)", "802.11n (HT)", "802.11g (legacy)".
func (d *Dev) phyName() string {
	p := "legacy"
	switch {
	case d.VHT:
		p = "HT, VHT"
	case d.HT:
		p = "HT"
	}
	if d.PHYMode == "" { // a daemon that did not say
		return p
	}
	return d.PHYMode + " (" + p + ")"
}

func orNone(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}
