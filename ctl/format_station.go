package ctl

import (
	"fmt"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// Clock is the printing side's time. iw prints the association time and
// the current time from its own clocks as it prints (gettimeofday and
// CLOCK_BOOTTIME); airqctl does the same, from the station's connected
// time.
type Clock struct {
	Wall time.Time
	Boot time.Duration // since boot, suspend included; 0: unknown, no [boottime] line
}

// AppendStation appends s in the layout of `iw dev <dev> station get`
// (print_sta_handler in iw 5.19's station.c, the lines mac80211 fills for
// a station of an AP), then airq's own lines in the phrasing of
// mac80211's per-station debugfs files (airtime, aql). Every line up to
// "current time" is iw's, with iw's format strings; airq's come after it,
// so a parser of iw's output reads the same fields in the same order.
// The header names the station's BSS, else dev.
func AppendStation(b []byte, dev string, s *Station, now Clock) []byte {
	if s.BSS != "" {
		dev = s.BSS // the station's own BSS, as iw names the interface it is on
	}
	b = appendIWStation(b, dev, s, now)
	return appendAirqStation(b, s)
}

func appendIWStation(b []byte, dev string, s *Station, now Clock) []byte {
	b = fmt.Appendf(b, "Station %s (on %s)", s.Addr, dev)
	b = fmt.Appendf(b, "\n\tinactive time:\t%d ms", s.InactiveMs)
	b = fmt.Appendf(b, "\n\trx bytes:\t%d\n\trx packets:\t%d", s.RxBytes, s.RxPackets)
	b = fmt.Appendf(b, "\n\ttx bytes:\t%d\n\ttx packets:\t%d", s.TxBytes, s.TxPackets)
	b = fmt.Appendf(b, "\n\ttx retries:\t%d\n\ttx failed:\t%d", s.TxRetries, s.TxFailed)
	b = fmt.Appendf(b, "\n\trx drop misc:\t%d", s.RxDropMisc)
	if s.Signal != 0 {
		// No per-chain figures: iw's chain list is empty.
		b = fmt.Appendf(b, "\n\tsignal:  \t%d dBm\n\tsignal avg:\t%d dBm", s.Signal, s.SignalAvg)
	}
	if s.TxRate.Mode != 0 {
		b = s.TxRate.AppendIW(append(b, "\n\ttx bitrate:\t"...))
	}
	b = fmt.Appendf(b, "\n\ttx duration:\t%d us", s.TxAirtime)
	if s.RxRate.Mode != 0 {
		b = s.RxRate.AppendIW(append(b, "\n\trx bitrate:\t"...))
	}
	b = fmt.Appendf(b, "\n\trx duration:\t%d us", s.RxAirtime)
	b = fmt.Appendf(b, "\n\tairtime weight: %d", s.AirtimeWeight)
	if s.ExpectedThroughput > 0 {
		// nl80211 carries it in 1024 bit/s, as minstrel_ht computes it;
		// iw scales it once more and prints the thousandths unpadded.
		thr := uint64(s.ExpectedThroughput) * 1000 / 1024 * 1000 / 1024
		b = fmt.Appendf(b, "\n\texpected throughput:\t%d.%dMbps", thr/1000, thr%1000)
	}
	pre := "long"
	if s.ShortPreamble {
		pre = "short"
	}
	b = fmt.Appendf(b, "\n\tauthorized:\t%s\n\tauthenticated:\tyes\n\tassociated:\t%s", yes(s.Authorized), yes(s.Associated))
	b = fmt.Appendf(b, "\n\tpreamble:\t%s\n\tWMM/WME:\t%s\n\tMFP:\t\t%s\n\tTDLS peer:\tno", pre, yes(s.WMM), yes(s.MFP))
	b = appendBSSParam(b, s)
	b = fmt.Appendf(b, "\n\tconnected time:\t%d seconds", s.ConnectedMs/1000)
	if s.Associated {
		b = appendAssociatedAt(b, s.ConnectedMs, now)
	}
	return fmt.Appendf(b, "\n\tcurrent time:\t%d ms\n", now.Wall.UnixMilli())
}

// appendBSSParam prints the BSS's parameters as iw's parse_bss_param does:
// a flag's line only when the flag is set (nl80211 sends flags only then),
// with iw's tab, or none before short slot time's value.
func appendBSSParam(b []byte, s *Station) []byte {
	if s.BeaconInterval == 0 {
		return b // a reply from before they were sent
	}
	b = fmt.Appendf(b, "\n\tDTIM period:\t%d\n\tbeacon interval:%d", s.DTIMPeriod, s.BeaconInterval)
	if s.CTSProtection {
		b = append(b, "\n\tCTS protection:\tyes"...)
	}
	if s.BSSShortPreamble {
		b = append(b, "\n\tshort preamble:\tyes"...)
	}
	if s.ShortSlotTime {
		b = append(b, "\n\tshort slot time:yes"...)
	}
	return b
}

// appendAssociatedAt prints when the station associated, from how long
// ago it did, on both of iw's clocks.
func appendAssociatedAt(b []byte, connectedMs int64, now Clock) []byte {
	ago := time.Duration(connectedMs) * time.Millisecond
	if bt := now.Boot - ago; now.Boot > 0 && bt >= 0 {
		b = fmt.Appendf(b, "\n\tassociated at [boottime]:\t%d.%03ds", bt/time.Second, bt%time.Second/time.Millisecond)
	}
	return fmt.Appendf(b, "\n\tassociated at:\t%d ms", now.Wall.Add(-ago).UnixMilli())
}

// appendAirqStation prints what iw has no line for.
func appendAirqStation(b []byte, s *Station) []byte {
	b = fmt.Appendf(b, "\taid:\t\t%d\n\tlisten interval:\t%d\n", s.AID, s.ListenInt)
	if s.State == StatePending {
		b = append(b, "\tassociation:\tpending (the response's acknowledgement is awaited)\n"...)
	}
	if s.AKM != "" {
		b = fmt.Appendf(b, "\takm:\t\t%s\n\tpairwise cipher:\t%s\n", s.AKM, s.Cipher)
	}
	if s.KeyID != "" {
		b = fmt.Appendf(b, "\tpsk keyid:\t%s\n", s.KeyID)
	}
	if s.SAEGroup != 0 {
		b = fmt.Appendf(b, "\tsae group:\t%d\n\tsae method:\t%s\n", s.SAEGroup, s.SAEMethod)
	}
	b = appendPerAC(append(b, "\tairtime deficit:\t"...), &s.AirtimeDeficit, " us")
	b = appendPerAC(append(b, "\taql pending:\t"...), &s.AQLPending, " us")
	b = append(b, "\taql limit[low/high]:"...)
	for ac := range ieee80211.NumACs {
		b = fmt.Appendf(b, " %s: %d/%d", ieee80211.AC(ac), s.AQLLimitLow[ac], s.AQLLimitHigh[ac])
	}
	b = append(b, '\n')
	b = appendPerAC(append(b, "\tin flight:\t"...), &s.InFlight, "")
	b = appendPerAC(append(b, "\ttx airtime:\t"...), &s.ACAirtime, " us")
	b = fmt.Appendf(b, "\ttx no status:\t%d\n\ttx queue drops:\t%d\n\trx duplicates:\t%d\n\tqueued frames:\t%d\n",
		s.TxNoStatus, s.TxQueueDrops, s.RxDuplicates, s.QueueFramesTotal)
	b = fmt.Appendf(b, "\ttx amsdus:\t%d\n\ttx amsdu subframes:\t%d (%.2f per A-MSDU)\n\ttx amsdu bytes:\t%d\n",
		s.AMSDUs, s.AMSDUSubframes, s.AMSDUMean, s.AMSDUBytes)
	if s.PHYMode != "" {
		b = fmt.Appendf(b, "\tphy mode:\t%s", s.PHYMode)
		if s.HEAnnounced {
			b = append(b, " (HE announced, not used)"...)
		}
		b = append(b, '\n')
	}
	return b
}
