package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/airq/airq/ctl"
)

// bssDescs are the families of each BSS of the radio (the snapshot's dev
// sections), labelled bss with its name; the radio's own families carry
// no such label and count every BSS.
type bssDescs struct {
	info, stations, mgmtTx, associations, aclDenied *prometheus.Desc
	bytes, packets, retries, failed                 *prometheus.Desc
	ackFrames, ackRetries, ackMissing, wired        *prometheus.Desc
	all                                             []*prometheus.Desc
}

func newBSSDescs() bssDescs {
	var s bssDescs
	d := func(name, help string, labels ...string) *prometheus.Desc {
		desc := prometheus.NewDesc("airq_bss_"+name, help, append([]string{"bss"}, labels...), nil)
		s.all = append(s.all, desc)
		return desc
	}
	s.info = d("info", "A BSS of the radio: its address, SSID, the interface that holds its address (so that the "+
		"hardware ACKs it), its TAP, and its own security (open, WPA2-Personal, WPA3-Personal or the transition) "+
		"and PMF (off, optional, required); always 1.", "bssid", "ssid", "holder", "tap", "security", "pmf")
	s.stations = d("stations", "A BSS's stations: associated, association pending, or authenticated only.", "state")
	s.mgmtTx = d("tx_management_frames_total", "Management frames a BSS sent in answer, by type, as "+
		"airq_tx_management_frames_total's.", "type")
	s.associations = d("associations_total", "Stations that became associated with a BSS.")
	s.aclDenied = d("acl_denied_total", "Authentications and associations a BSS's access lists refused.")
	s.bytes = d("bytes_total", "Data bytes to (tx) and from (rx) a BSS's stations, those that left included.", "dir")
	s.packets = d("packets_total", "Data frames to (tx) and from (rx) a BSS's stations, those that left included.", "dir")
	s.retries = d("tx_retries_total", "Retransmissions to a BSS's stations, from TX status.")
	s.failed = d("tx_failed_total", "Frames a BSS's stations never acknowledged.")
	s.wired = d("wired_frames_total", "Frames from (in) and to (out) a BSS's wired side, its TAP.", "dir")
	s.ackFrames = d("ack_watch_frames_total", "Unicast frames from the air to a BSS's BSSID, before duplicates are dropped.")
	s.ackRetries = d("ack_watch_retries_total", "Of those, frames with the Retry bit set.")
	s.ackMissing = d("ack_missing_total", "Frames to a BSS's BSSID seen with Retry so often that nobody ACKed them: "+
		"the hardware does not seem to ACK the address (a BSSID no interface of the driver carries).")
	return s
}

func (s *bssDescs) describe(ch chan<- *prometheus.Desc) {
	for _, d := range s.all {
		ch <- d
	}
}

func (s *bssDescs) collect(e emitter, devs []ctl.Dev) {
	for i := range devs {
		d := &devs[i]
		n := d.Name
		e.gauge(s.info, 1, n, d.BSSID.String(), d.SSID, d.Holder, d.TAP, d.Security, d.PMF)
		e.gauge(s.stations, float64(d.Stations), n, "associated")
		e.gauge(s.stations, float64(d.Pending), n, "pending")
		e.gauge(s.stations, float64(d.Authenticated), n, "authenticated")
		e.counter(s.mgmtTx, float64(d.ProbeResponses), n, "probe_response")
		e.counter(s.mgmtTx, float64(d.AuthResponses), n, "auth")
		e.counter(s.mgmtTx, float64(d.AssocResponses), n, "assoc_response")
		e.counter(s.mgmtTx, float64(d.Deauths), n, "deauth")
		e.counter(s.associations, float64(d.Associations), n)
		e.counter(s.aclDenied, float64(d.ACLDenied), n)
		e.counter(s.bytes, float64(d.TxBytes), n, "tx")
		e.counter(s.bytes, float64(d.RxBytes), n, "rx")
		e.counter(s.packets, float64(d.TxPackets), n, "tx")
		e.counter(s.packets, float64(d.RxPackets), n, "rx")
		e.counter(s.retries, float64(d.TxRetries), n)
		e.counter(s.failed, float64(d.TxFailed), n)
		e.counter(s.wired, float64(d.WiredIn), n, "in")
		e.counter(s.wired, float64(d.WiredOut), n, "out")
		e.counter(s.ackFrames, float64(d.AckFrames), n)
		e.counter(s.ackRetries, float64(d.AckRetries), n)
		e.counter(s.ackMissing, float64(d.AckUnanswered), n)
	}
}
