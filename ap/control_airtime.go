package ap

import (
	"maps"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/txq/policy"
)

// ctlAirtime reports the airtime policy: the radio's mode, each BSS's keys,
// cap budget and airtime used (the sum over its associated stations), and
// each associated station's weight and backlog.
func (a *AP) ctlAirtime(now time.Duration) *ctl.Airtime {
	c := &a.cfg.Airtime
	r := &ctl.Airtime{Mode: int(c.Mode), ModeName: c.Mode.String(), UpdateIntervalMs: c.Interval.Milliseconds()}
	if c.Interval == 0 {
		r.UpdateIntervalMs = policy.DefaultInterval.Milliseconds()
	}
	for i, b := range a.bsses {
		k := c.of(i)
		rb := ctl.AirtimeBSS{Index: i, BSSID: ctl.MAC(b.BSSID), Weight: int(k.Weight), Limit: k.Limit, CapPercent: 100}
		if perMille, credit := a.sched.Cap(uint8(i), now); perMille != 0 {
			rb.CapPercent, rb.CapCreditUs = perMille/10, credit
		}
		if a.airtime.pol != nil {
			rb.Backlogged = a.airtime.pol.Backlogged(uint8(i))
		}
		r.BSSes = append(r.BSSes, rb)
	}
	for slot := range a.sta.slots {
		s := &a.sta.slots[slot]
		if s.State != bss.StateAssociated {
			continue
		}
		i := a.groupOf(uint16(slot))
		frames, bytes := a.sched.StationBacklog(uint16(slot))
		r.Stations = append(r.Stations, ctl.AirtimeStation{
			Addr: ctl.MAC(s.Addr), BSS: i, Weight: int(a.sched.Weight(uint16(slot))), StaWeight: int(c.of(i).StaWeights[s.Addr]),
			BacklogFrames: frames, BacklogBytes: bytes, TxAirtimeUs: int64(s.TxAirtime),
		})
		if i < len(r.BSSes) {
			r.BSSes[i].TxAirtimeUs += int64(s.TxAirtime)
		}
	}
	return r
}

// ctlAirtimeSet changes one airtime key, live, of the first BSS for the
// BSS keys: airqctl airtime set.
func (a *AP) ctlAirtimeSet(now time.Duration, req ctl.Request) ctl.Reply {
	c := a.cfg.Airtime
	c.BSS = append([]BSSAirtime(nil), c.BSS...)
	if len(c.BSS) == 0 {
		c.BSS = append(c.BSS, BSSAirtime{})
	}
	b := &c.BSS[0]
	switch req.Key {
	case "airtime_mode":
		c.Mode = policy.Mode(req.Value)
	case "airtime_update_interval":
		c.Interval = time.Duration(req.Value) * time.Millisecond
	case "airtime_bss_weight":
		b.Weight = uint16(req.Value)
	case "airtime_bss_limit":
		b.Limit = req.Value != 0
	case "airtime_bss_cap":
		b.CapPercent = int(req.Value)
		if b.CapPercent >= 100 {
			b.CapPercent = 0 // no cap, as the file's default
		}
	case "airtime_sta_weight":
		if req.Value == 0 && b.StaWeights[req.Addr] == 0 {
			break
		}
		b.StaWeights = maps.Clone(b.StaWeights) // the running configuration's map is shared
		if b.StaWeights == nil {
			b.StaWeights = map[ieee80211.MAC]uint16{}
		}
		if req.Value == 0 {
			delete(b.StaWeights, req.Addr)
		} else {
			b.StaWeights[req.Addr] = uint16(req.Value)
		}
	default:
		return ctl.Errorf(ctl.EINVAL, "airtime set: key %q: not an airtime key", req.Key)
	}
	if err := a.SetAirtime(now, c); err != nil {
		return ctl.Errorf(ctl.EINVAL, "airtime set: %v", err)
	}
	return ctl.Reply{Airtime: a.ctlAirtime(now)}
}
