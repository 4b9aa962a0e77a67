package ap

import (
	"strconv"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
)

// The radio's BSSes as operators see them (airqctl dev), and the station
// requests scoped to one of them ("dev NAME station ...", as iw's).

// ctlDevs lists the BSSes in the radio's order.
func (a *AP) ctlDevs() []ctl.Dev {
	devs := make([]ctl.Dev, len(a.bsses))
	for i := range a.bsses {
		a.ctlDev(&devs[i], i)
	}
	return devs
}

func (a *AP) ctlDev(d *ctl.Dev, i int) {
	b := a.bsses[i]
	*d = ctl.Dev{Name: a.bssName(i), Index: i, BSSID: ctl.MAC(b.BSSID), SSID: b.Profile.SSID, Hidden: b.Profile.Hidden,
		Channel: a.cfg.Channel, Freq: a.cfg.Freq, Width: a.iwWidth(), Stations: b.Associated, Pending: b.Pending}
	ops := &a.radios[i].ops
	d.Holder, d.TAP = ops.holder, ops.tap
	d.Security, d.KeyMgmt, d.PMF = describeSecurity(a.radios[i].rsn)
	d.WMM, d.HT, d.VHT, d.PHYMode = b.Profile.WMM, b.PHY.HT(), b.PHY.VHT(), a.phyMode(b)
	d.WiredIn, d.WiredOut = ops.wiredIn, ops.wiredOut
	for slot := range a.sta.used() {
		if s := &a.sta.slots[slot]; s.bss == b && s.State == bss.StateAuthenticated {
			d.Authenticated++
		}
	}
	c := &b.Counts
	d.ProbeResponses, d.AuthResponses, d.AssocResponses = c.ProbeResponses, c.AuthResponses, c.AssocResponses
	d.Associations, d.Deauths, d.ACLDenied = c.Associations, c.Deauths, c.ACLDenied
	t := a.bssTraffic(i)
	d.RxBytes, d.RxPackets, d.TxBytes, d.TxPackets = t.RxBytes, t.RxPackets, t.TxBytes, t.TxPackets
	d.TxRetries, d.TxFailed = t.TxRetries, t.TxFailed
	w := ops.ack.Counts()
	d.AckFrames, d.AckRetries, d.AckUnanswered = w.Frames, w.Retries, w.Unanswered
}

// iwWidth is the channel width as iw dev prints it.
func (a *AP) iwWidth() string {
	if p := a.cfg.PHY; p.HT && p.Width > 20 {
		return strconv.Itoa(p.Width) + " MHz"
	} else if p.HT {
		return "20 MHz"
	}
	return "20 MHz (no HT)"
}

// scopeToDev checks a request that names a BSS (req.Dev): the BSS must
// exist, and a station the request names must be of it, as iw finds a
// station only on its own interface. It returns the BSS's index.
func (a *AP) scopeToDev(req ctl.Request) (int, ctl.Reply, bool) {
	i, ok := a.bssNamed(req.Dev)
	if !ok {
		return 0, ctl.Errorf(ctl.ENODEV, "dev %s: no such BSS", req.Dev), false
	}
	switch req.Op {
	case ctl.OpStationGet, ctl.OpStationSet, ctl.OpStationDel, ctl.OpStationRates, ctl.OpStationPMK, ctl.OpSAQuery:
		if _, s := a.sta.lookup(req.Addr); s != nil && s.bss != a.bsses[i] {
			return 0, ctl.Errorf(ctl.ENOENT, "station %s: not a station of %s", req.Addr, req.Dev), false
		}
	}
	return i, ctl.Reply{}, true
}
