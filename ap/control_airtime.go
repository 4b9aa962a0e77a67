package ap

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
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
		rb := ctl.AirtimeBSS{Index: i, Name: a.nameOf(i), BSSID: ctl.MAC(b.BSSID), Weight: int(k.Weight), Limit: k.Limit, CapPercent: 100}
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

// nameOf is BSS i's name (Config.Name, then each BSSConfig's).
func (a *AP) nameOf(i int) string {
	if i == 0 {
		return a.cfg.Name
	}
	return a.cfg.BSSes[i-1].Name
}

// airtimeBSS is the index of the BSS sel names, by its name or its index
// ("": the first).
func (a *AP) airtimeBSS(sel string) (int, error) {
	if sel == "" {
		return 0, nil
	}
	for i := range a.bsses {
		if a.nameOf(i) == sel {
			return i, nil
		}
	}
	if i, err := strconv.Atoi(sel); err == nil && i >= 0 && i < len(a.bsses) {
		return i, nil
	}
	names := make([]string, len(a.bsses))
	for i := range names {
		names[i] = strconv.Itoa(i)
		if n := a.nameOf(i); n != "" {
			names[i] += " (" + n + ")"
		}
	}
	return 0, fmt.Errorf("no BSS %q: the radio's are %s", sel, strings.Join(names, ", "))
}

// ctlAirtimeSet changes one airtime key, live: the radio's, or one of the
// BSS the request names (the first if none): airqctl airtime set. The
// scheduler has it at once (SetAirtime).
func (a *AP) ctlAirtimeSet(now time.Duration, req ctl.Request) ctl.Reply {
	i, err := a.airtimeBSS(req.BSS)
	if err != nil {
		return ctl.Errorf(ctl.ENOENT, "airtime set: %v", err)
	}
	c := a.cfg.Airtime
	c.BSS = append([]BSSAirtime(nil), c.BSS...)
	for len(c.BSS) <= i {
		c.BSS = append(c.BSS, BSSAirtime{})
	}
	b := &c.BSS[i]
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
