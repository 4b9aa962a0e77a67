package ap

import (
	"fmt"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/txq"
	"github.com/airq/airq/txq/policy"
)

// Airtime is how the radio shares its air between its BSSes: hostapd's
// airtime_mode and airtime_update_interval (the radio's), and each BSS's
// keys. The zero value is hostapd's airtime_mode=0: every station weighs
// Config.AirtimeWeight (or what airqctl sets), no BSS is capped.
type Airtime struct {
	Mode policy.Mode
	// Interval is airtime_update_interval, the period of the Dynamic and
	// Limit modes' weight updates; 0: policy.DefaultInterval.
	Interval time.Duration
	// BSS are the BSSes' keys in configuration order, index i for the
	// radio's i-th BSS (its scheduler group); a BSS without an entry has
	// none of the keys.
	BSS []BSSAirtime
}

// BSSAirtime is one BSS's airtime keys.
type BSSAirtime struct {
	// Weight is airtime_bss_weight: the weight of the BSS's stations
	// without one of their own in Static mode, the BSS's share among the
	// BSSes in Dynamic and Limit mode; 0 leaves the BSS out, as hostapd.
	Weight uint16
	// Limit is airtime_bss_limit: Limit mode holds the BSS to its share.
	Limit bool
	// StaWeights are airtime_sta_weight: Static mode's station weights.
	StaWeights map[ieee80211.MAC]uint16
	// CapPercent is airtime_bss_cap: the most of the radio's air the BSS
	// may use even when nobody else wants the rest; 0 and 100: no cap.
	CapPercent int
}

// capped reports whether the BSS has a hard cap.
func (b BSSAirtime) capped() bool { return b.CapPercent > 0 && b.CapPercent < 100 }

// validate names the first invalid key.
func (c Airtime) validate() error {
	if c.Mode > policy.Limit {
		return fmt.Errorf("airtime_mode: %d, want 0, 1, 2 or 3", c.Mode)
	}
	if c.Interval < 0 || c.Interval > 0 && c.Interval < time.Millisecond {
		return fmt.Errorf("airtime_update_interval: %v, want 1 to 3600000 ms", c.Interval)
	}
	if len(c.BSS) > txq.MaxGroups {
		return fmt.Errorf("airtime: %d BSSes, want at most %d", len(c.BSS), txq.MaxGroups)
	}
	for _, b := range c.BSS {
		if b.CapPercent < 0 || b.CapPercent > 100 {
			return fmt.Errorf("airtime_bss_cap: %d, want 1 to 100", b.CapPercent)
		}
		for m, w := range b.StaWeights {
			if w == 0 {
				return fmt.Errorf("airtime_sta_weight: %s 0, want 1 to 65535", m)
			}
		}
	}
	return nil
}

// of is BSS i's keys (none past the configured ones).
func (c *Airtime) of(i int) BSSAirtime {
	if i < len(c.BSS) {
		return c.BSS[i]
	}
	return BSSAirtime{}
}

// airtimePolicy is the radio's running policy: a.cfg.Airtime applied.
type airtimePolicy struct {
	pol *policy.Policy // nil in mode 0
	// update is when the Dynamic and Limit modes' next Update is due;
	// timed is false in the other modes or before Start.
	update time.Duration
	timed  bool
	// caps is the number of capped BSSes. With one, a TX pass that leaves
	// frames queued and none in flight sets wake to when the first group
	// over budget is back within it: no completion would call the loop.
	caps   int
	wake   time.Duration
	waking bool
}

// newAirtimePolicy builds the policy cfg.Airtime asks for; caps and the
// timer wait for Start.
func newAirtimePolicy(c Airtime, weight uint16) (airtimePolicy, error) {
	var p airtimePolicy
	if c.Mode == policy.Off {
		return p, nil
	}
	pol, err := policy.New(policy.Config{Mode: c.Mode, Interval: c.Interval, MaxStations: maxAID, Default: weight})
	if err != nil {
		return p, err
	}
	p.pol = pol
	return p, nil
}

// airtimeStart applies the BSSes' keys and caps at now and starts the
// Dynamic and Limit modes' timer: at Start, again after an Enable.
func (a *AP) airtimeStart(now time.Duration) {
	for i := range a.bsses {
		a.applyBSSAirtime(now, i)
	}
	a.airtimeTimer(now)
}

// airtimeTimer runs the first Update now (the modes that have one).
func (a *AP) airtimeTimer(now time.Duration) {
	p := &a.airtime
	p.timed = false
	if p.pol != nil {
		p.update, p.timed = p.pol.Update(now, a.sched)
	}
}

// applyBSSAirtime gives BSS i's keys to the policy and its cap to the
// scheduler.
func (a *AP) applyBSSAirtime(now time.Duration, i int) {
	b := a.cfg.Airtime.of(i)
	g := uint8(i)
	if a.airtime.pol != nil {
		a.airtime.pol.SetBSS(g, policy.BSS{Weight: b.Weight, Limit: b.Limit}, a.sched)
	}
	if b.capped() {
		if err := a.sched.SetCap(g, b.CapPercent*10, 0, now); err != nil {
			panic(err) // validated: 1 to 99 percent of an existing group
		}
	} else {
		a.sched.ClearCap(g)
	}
	a.countCaps()
}

func (a *AP) countCaps() {
	n := 0
	for i := range a.bsses {
		if a.cfg.Airtime.of(i).capped() {
			n++
		}
	}
	a.airtime.caps = n
	if n == 0 {
		a.airtime.waking = false
	}
}

// groupOf is the index of the BSS the station in slot belongs to.
func (a *AP) groupOf(slot uint16) int {
	if b := a.sta.slots[slot].bss; b != nil {
		return int(a.indexOf(b))
	}
	return 0
}

// airtimeJoin files a station the scheduler just took into its BSS's
// group and gives it the policy's weight (hostapd's
// airtime_policy_new_sta).
func (a *AP) airtimeJoin(slot uint16) {
	i := a.groupOf(slot)
	if err := a.sched.SetGroup(slot, uint8(i)); err != nil {
		panic(err) // the scheduler holds the station; BSSes are at most its groups
	}
	a.air.SetGroup(slot, uint8(i)) // its in-flight airtime counts in its BSS's

	if a.airtime.pol != nil {
		a.airtime.pol.AddStation(slot, uint8(i), a.cfg.Airtime.of(i).StaWeights[a.sta.slots[slot].Addr], a.sched)
	}
}

// airtimeLeave forgets a station the scheduler let go.
func (a *AP) airtimeLeave(slot uint16) {
	if a.airtime.pol != nil {
		a.airtime.pol.RemoveStation(slot)
	}
}

// airtimeTick runs the policy's Update when due (Tick tests timed first,
// so that the default, no timer, costs one test).
func (a *AP) airtimeTick(now time.Duration) {
	if p := &a.airtime; now >= p.update {
		p.update, p.timed = p.pol.Update(now, a.sched)
	}
}

// airtimeAfterPass notes, after a TX pass, when a capped BSS's frames
// left queued with nothing in flight may go: Deadline includes it.
func (a *AP) airtimeAfterPass(now time.Duration) {
	p := &a.airtime
	p.waking = false
	if a.backlog > 0 && a.inflight == 0 {
		p.wake, p.waking = a.sched.CapDeadline(now)
	}
}

// airtimeDeadline is the earliest of the policy's timer and a capped
// BSS's return within budget; none while the radio is not running.
func (a *AP) airtimeDeadline() (time.Duration, bool) {
	p := &a.airtime
	switch {
	case !p.timed && !p.waking || !a.started:
		return 0, false
	case p.timed && p.waking:
		return min(p.update, p.wake), true
	case p.timed:
		return p.update, true
	}
	return p.wake, p.waking
}

// airtimeOwnsWeights refuses a station's weight set by hand where the
// policy would overwrite it at its next update (modes 2 and 3).
func (a *AP) airtimeOwnsWeights() error {
	if m := a.cfg.Airtime.Mode; m == policy.Dynamic || m == policy.Limit {
		return fmt.Errorf("airtime_mode %d (%s) sets the stations' weights every airtime_update_interval: set airtime_bss_weight instead", m, m)
	}
	return nil
}

// AirtimeConfig is the airtime policy in force.
func (a *AP) AirtimeConfig() Airtime { return a.cfg.Airtime }

// airtimeDefault follows SetDefaultAirtimeWeight: the weight of the
// stations the policy gives none.
func (a *AP) airtimeDefault(w uint16) {
	if a.airtime.pol != nil {
		a.airtime.pol.SetDefault(w)
	}
}

// SetAirtime applies a new airtime policy live, as a reload does: a
// changed mode or interval starts a new policy to which every associated
// station is added again (which sets every weight; mode 0 gives them
// Config.AirtimeWeight), and every BSS's weight, limit, station weights
// and cap take effect at once.
func (a *AP) SetAirtime(now time.Duration, c Airtime) error {
	if err := c.validate(); err != nil {
		return err
	}
	old := a.cfg.Airtime
	a.cfg.Airtime = c
	if c.Mode != old.Mode || c.Interval != old.Interval {
		p, err := newAirtimePolicy(c, a.cfg.AirtimeWeight)
		if err != nil {
			a.cfg.Airtime = old
			return err
		}
		p.caps, p.wake, p.waking = a.airtime.caps, a.airtime.wake, a.airtime.waking
		a.airtime = p
	}
	if !a.started {
		return nil // Start applies it
	}
	for i := range a.bsses {
		a.applyBSSAirtime(now, i)
	}
	for slot := range a.sta.slots {
		s := &a.sta.slots[slot]
		if s.State != bss.StateAssociated {
			continue
		}
		if a.airtime.pol == nil {
			if old.Mode != policy.Off {
				a.sched.SetWeight(uint16(slot), a.cfg.AirtimeWeight)
			}
			continue
		}
		i := a.groupOf(uint16(slot))
		own := c.of(i).StaWeights[s.Addr]
		if c.Mode != old.Mode || c.Interval != old.Interval || own != old.of(i).StaWeights[s.Addr] {
			a.airtime.pol.AddStation(uint16(slot), uint8(i), own, a.sched)
		}
	}
	if c.Mode != old.Mode || c.Interval != old.Interval {
		a.airtimeTimer(now)
	}
	a.txLoop(now) // a lifted or wider cap releases queued frames at once
	return nil
}
