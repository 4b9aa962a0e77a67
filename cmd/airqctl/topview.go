package main

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/radio"
)

// topFrame is one refresh of airqctl top: rates over the interval between
// two snapshots, and the levels (rate, signal, AQL, queues) of the second.
type topFrame struct {
	Interval   float64      `json:"interval_s"` // the daemon's clock between the snapshots
	SSID       string       `json:"ssid"`
	Channel    int          `json:"channel"`
	Freq       int          `json:"freq"`
	DownMbps   float64      `json:"down_mbps"`
	UpMbps     float64      `json:"up_mbps"`
	Airtime    float64      `json:"airtime_pct"` // the stations' TX and RX airtime over the interval
	AQLPending uint64       `json:"aql_pending_us"`
	Queued     int          `json:"queued_frames"`
	Stations   []topStation `json:"stations"`
}

// topStation is one station's line.
type topStation struct {
	Addr       ctl.MAC     `json:"mac"`
	Share      float64     `json:"airtime_share_pct"` // of all stations' downlink airtime
	Airtime    float64     `json:"airtime_pct"`       // its TX and RX airtime over the interval
	DownMbps   float64     `json:"down_mbps"`
	UpMbps     float64     `json:"up_mbps"`
	Rate       ctl.Bitrate `json:"tx_bitrate"`
	Signal     int8        `json:"signal_avg_dbm"`
	AQLPending int64       `json:"aql_pending_us"` // all ACs
	Queued     int         `json:"queued_frames"`
}

// newTopFrame computes a frame from snapshots prev and cur, taken wall
// apart. The daemon's TSF gives the interval (it is the simulator's
// virtual time under -radio sim); the wall clock only when it has none.
func newTopFrame(prev, cur *ctl.Reply, wall time.Duration) topFrame {
	st := cur.Status
	f := topFrame{SSID: st.SSID, Channel: st.Channel, Freq: st.Freq, AQLPending: st.AirtimePending}
	dt := wall.Seconds()
	if p := prev.Status; p != nil && p.TSF > 0 && st.TSF > p.TSF {
		dt = float64(st.TSF-p.TSF) / 1e6
	}
	f.Interval = dt
	var downAir uint64
	for i := range cur.Stations {
		s := &cur.Stations[i]
		old := findStation(prev.Stations, s.Addr)
		tx, rx := since(s.TxAirtime, old, func(o *ctl.Station) uint64 { return o.TxAirtime }),
			since(s.RxAirtime, old, func(o *ctl.Station) uint64 { return o.RxAirtime })
		down := since(s.TxBytes, old, func(o *ctl.Station) uint64 { return o.TxBytes })
		up := since(s.RxBytes, old, func(o *ctl.Station) uint64 { return o.RxBytes })
		t := topStation{Addr: s.Addr, Airtime: pct(float64(tx+rx)/1e6, dt), DownMbps: mbps(down, dt), UpMbps: mbps(up, dt),
			Rate: s.TxRate, Signal: s.SignalAvg, Queued: s.QueueFramesTotal, Share: float64(tx)}
		for _, p := range s.AQLPending {
			t.AQLPending += p
		}
		downAir += tx
		f.DownMbps += t.DownMbps
		f.UpMbps += t.UpMbps
		f.Airtime += t.Airtime
		f.Queued += t.Queued
		f.Stations = append(f.Stations, t)
	}
	for i := range f.Stations {
		f.Stations[i].Share = pct(f.Stations[i].Share, float64(downAir))
	}
	slices.SortStableFunc(f.Stations, func(a, b topStation) int {
		return cmp.Or(cmp.Compare(b.Share, a.Share), cmp.Compare(a.Addr.String(), b.Addr.String()))
	})
	return f
}

func findStation(ss []ctl.Station, addr ctl.MAC) *ctl.Station {
	for i := range ss {
		if ss[i].Addr == addr {
			return &ss[i]
		}
	}
	return nil
}

// since is a counter's growth since old; a station that was not there, or
// whose counter went back (it reconnected), counts from zero.
func since(v uint64, old *ctl.Station, get func(*ctl.Station) uint64) uint64 {
	if old == nil || get(old) > v {
		return v
	}
	return v - get(old)
}

func pct(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return 100 * part / whole
}

func mbps(bytes uint64, dt float64) float64 {
	if dt <= 0 {
		return 0
	}
	return float64(bytes) * 8 / dt / 1e6
}

// appendText prints the frame: a header with the BSS and the totals, then
// one line per station, busiest first.
func (f *topFrame) appendText(b []byte, ifname string, now time.Time) []byte {
	b = fmt.Appendf(b, "%s: ssid %s, channel %d (%d MHz), %d stations, over %.2f s at %s\n", ifname, f.SSID, f.Channel,
		f.Freq, len(f.Stations), f.Interval, now.Format("15:04:05"))
	b = fmt.Appendf(b, "total: down %.1f Mbit/s, up %.1f Mbit/s, airtime charged %.1f%%, aql pending %d us, queued %d\n\n",
		f.DownMbps, f.UpMbps, f.Airtime, f.AQLPending, f.Queued)
	b = fmt.Appendf(b, "%-17s %6s %6s %9s %9s  %-22s %7s %7s %6s\n", "STATION", "SHARE", "AIR", "DOWN", "UP",
		"TX RATE", "SIGNAL", "AQL", "QUEUED")
	b = fmt.Appendf(b, "%-17s %6s %6s %9s %9s  %-22s %7s %7s %6s\n", "", "%", "%", "Mbit/s", "Mbit/s", "Mbit/s", "dBm", "us", "frames")
	for i := range f.Stations {
		s := &f.Stations[i]
		b = fmt.Appendf(b, "%-17s %6.1f %6.1f %9.2f %9.2f  %-22s %7d %7d %6d\n", s.Addr, s.Share, s.Airtime,
			s.DownMbps, s.UpMbps, shortRate(s.Rate), s.Signal, s.AQLPending, s.Queued)
	}
	return b
}

// shortRate names a rate in a column: the figure, then rc_stats's mode
// and MCS, like "433.3 VHT80 MCS9/1 SGI".
func shortRate(r ctl.Bitrate) string {
	rate := r.Rate100k()
	if rate == 0 {
		return "-"
	}
	s := fmt.Sprintf("%d.%d", rate/10, rate%10)
	switch r.Mode {
	case radio.ModeHT:
		s += fmt.Sprintf(" HT%d MCS%d", r.Bandwidth, r.MCS)
	case radio.ModeVHT:
		s += fmt.Sprintf(" VHT%d MCS%d/%d", r.Bandwidth, r.MCS, r.NSS)
	case radio.ModeHE:
		s += fmt.Sprintf(" HE%d MCS%d/%d", r.Bandwidth, r.MCS, r.NSS)
	}
	if r.ShortGI && (r.Mode == radio.ModeHT || r.Mode == radio.ModeVHT) {
		s += " SGI"
	}
	return s
}
