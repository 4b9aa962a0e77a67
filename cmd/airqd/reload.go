package main

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/config"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/shell"
)

// reloader applies a changed configuration file to the running daemon on
// SIGHUP: the keys marked reload go to the core through the control path,
// the log level to the handler; any other changed key is logged as needing
// a restart.
type reloader struct {
	mu    sync.Mutex // one reload at a time: SIGHUP's and the hostapd socket's
	args  []string   // the command line, re-parsed with the new file
	cur   options
	srv   *shell.ControlServer
	level *slog.LevelVar
	log   *slog.Logger
	// staged are the hostapd socket's SET lines, read after the file's;
	// a SIGHUP drops them, as hostapd's re-read of the file drops SET's
	// changes. Guarded by mu.
	staged []byte
	// radio restarts the radio, real or simulated, for a BSS added
	// through the global socket whose settings only a start applies, and
	// for a file whose bss= sections changed (reload_sections.go); nil
	// (tests of the reload alone): they are refused.
	radio *radioRestarts
	// sockets are the BSSes' hostapd sockets, which follow the file's
	// sections: hostapdSockets, or with -g slot; gone are those a restart
	// for the sections no longer needs, closed once mu is released
	// (reload_sections.go). Guarded by mu.
	sockets sectionSockets
	gone    []*shell.HostapdServer
	// slot is the global socket's (-g), whose commands hold its mu while
	// they take mu: a reload takes its mu first (lock). Stored once,
	// with mu held; locked is the slot lock took, guarded by mu.
	slot   atomic.Pointer[bssSlot]
	locked *bssSlot
}

// lock takes mu for a reload, after the global socket's slot's lock: a
// restart for the file's sections changes the sockets it holds.
func (r *reloader) lock() {
	for {
		s := r.slot.Load()
		if s != nil {
			s.mu.Lock()
		}
		r.mu.Lock()
		if r.slot.Load() == s { // else stored meanwhile, at start
			r.locked = s
			return
		}
		r.mu.Unlock()
		if s != nil {
			s.mu.Unlock()
		}
	}
}

// unlock releases lock's locks and returns the sockets to close
// (closeGone).
func (r *reloader) unlock() []*shell.HostapdServer {
	gone, s := r.gone, r.locked
	r.gone, r.locked = nil, nil
	r.mu.Unlock()
	if s != nil {
		s.mu.Unlock()
	}
	return gone
}

// reloadFile is SIGHUP's reload: the file as it is now.
func (r *reloader) reloadFile(ctx context.Context) error {
	r.lock()
	r.staged = nil
	err := r.reloadLocked(ctx)
	closeGone(r.unlock())
	return err
}

// reloadLocked re-reads the file (and the staged lines). A file that no
// longer parses changes nothing. Call it with lock's locks held.
func (r *reloader) reloadLocked(ctx context.Context) error {
	if r.cur.configPath == "" && len(r.staged) == 0 {
		r.log.Info("SIGHUP: no -config file to reload")
		return nil
	}
	next, err := parseFlagsWith(r.args, r.staged)
	config.AsProblems(err).Log(r.log, "reload: ")
	next.warnings.Log(r.log, "reload: ")
	if err != nil {
		r.log.Error("reload: configuration refused; keeping the running one")
		return err
	}
	if r.radio != nil && r.sockets != nil && !slices.Equal(sectionNames(&r.cur), sectionNames(&next)) {
		return r.restartForSections(ctx, next)
	}
	return r.applyLocked(ctx, next, false)
}

// needsRestart lists the keys next changes that only a restart applies
// (hostapd's control interface keys aside: they are the socket's, not the
// radio's; so is interface=, which names an added BSS's socket once the
// radio is driven).
func (r *reloader) needsRestart(next *options) []string {
	var keys []string
	oldV, newV := fileValues(&r.cur), fileValues(next)
	var base *options
	for _, key := range config.Names() {
		k, _ := config.Lookup(key)
		if oldV[key] == newV[key] || k.Reload || k.OverriddenBy(next.flagSet) != "" ||
			key == "ctrl_interface" || key == "ctrl_interface_group" || key == "interface" {
			continue
		}
		if _, had := oldV[key]; !had {
			// The running file leaves the key at its default or a flag's
			// value: a line that gives the same value changes nothing.
			if base == nil {
				b, _ := parseFlagsWith(r.args, nil)
				base = &b
			}
			probe, err := parseFlagsWith(r.args, []byte(key+"="+newV[key]+"\n"))
			if err == nil && reflect.DeepEqual(probe.Settings, base.Settings) {
				continue
			}
		}
		keys = append(keys, key)
	}
	return keys
}

// fileValues is the file's values; none without one.
func fileValues(o *options) map[string]string {
	if o.conf == nil {
		return map[string]string{}
	}
	return o.conf.Values()
}

// applyLocked applies next's reloadable keys; strict refuses, changing
// nothing, a next that changes a key only a restart applies (a BSS added
// through hostapd's global socket must be the radio's), where a SIGHUP
// logs it.
func (r *reloader) applyLocked(ctx context.Context, next options, strict bool) error {
	if keys := r.needsRestart(&next); strict && len(keys) > 0 {
		return fmt.Errorf("%s differ from the running configuration and take effect only at start: "+
			"restart airqd with the new file", strings.Join(keys, ", "))
	}
	oldV, newV := fileValues(&r.cur), fileValues(&next)
	for _, key := range config.Names() {
		if oldV[key] == newV[key] || strict && (key == "ctrl_interface" || key == "ctrl_interface_group") {
			continue // an added BSS's socket keys are its own, not the radio's
		}
		k, _ := config.Lookup(key)
		switch f := k.OverriddenBy(next.flagSet); {
		case f != "":
			r.log.Info("reload: key changed in the file but set by a flag, which wins", "key", key, "flag", "-"+f)
		case !k.Reload:
			r.log.Warn("reload: key changed; restart airqd to apply it", "key", key, "old", oldV[key], "new", newV[key])
		}
	}
	var errs []error
	ol, nl := r.cur.Core.AQL, next.Core.AQL
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		if ol.Low[ac] == nl.Low[ac] && ol.High[ac] == nl.High[ac] {
			continue
		}
		req := ctl.Request{Op: ctl.OpAQLSet, AC: ac, Low: nl.Low[ac], High: nl.High[ac], Force: true} // a zero limit in the file is meant: the start takes it too
		if _, err := r.srv.Call(ctx, req); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", req, err))
			nl.Low[ac], nl.High[ac] = ol.Low[ac], ol.High[ac]
			continue
		}
		r.log.Info("reload: applied", "aql_txq_limit", fmt.Sprintf("%s=%d:%d", ac, nl.Low[ac], nl.High[ac]))
	}
	if ol.Threshold != nl.Threshold {
		req := ctl.Request{Op: ctl.OpAQLThreshold, Threshold: nl.Threshold}
		if _, err := r.srv.Call(ctx, req); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", req, err))
			nl.Threshold = ol.Threshold
		} else {
			r.log.Info("reload: applied", "aql_threshold", nl.Threshold)
		}
	}
	if next.logLevel != r.cur.logLevel {
		r.level.Set(next.logLevel)
		r.log.Info("reload: applied", "log_level", next.logLevel.String())
	}
	if err := r.reloadCore(ctx, &next); err != nil {
		errs = append(errs, err)
	}
	// What was not applied stays as it runs, so the next reload compares
	// against the running state.
	applied := r.cur
	applied.Core.AQL = nl
	applied.logLevel = next.logLevel
	applied.conf = next.conf
	r.cur = applied
	if len(errs) > 0 {
		err := fmt.Errorf("reload: %v", errs)
		r.log.Error("reload: not applied", "err", err)
		return err
	}
	return nil
}

// reloadCore applies the new access lists, default airtime weight and PSKs
// (their PMKs derived here, off the loop) on the core's loop when they
// differ from the running ones, and restarts each BSS whose bss= section
// changed (reload_bss.go): shell.Reconfigure, which deauthenticates the
// stations they now refuse, as hostapd does.
func (r *reloader) reloadCore(ctx context.Context, next *options) error {
	cur := r.cur.Core.ACL
	nacl, weight := next.Core.ACL, next.Core.AirtimeWeight
	rc := shell.Reconfig{}
	if cur.Mode != nacl.Mode || !maps.Equal(cur.Accept, nacl.Accept) || !maps.Equal(cur.Deny, nacl.Deny) {
		rc.ACL = &nacl
	}
	if weight != r.cur.Core.AirtimeWeight {
		rc.AirtimeWeight = weight
	}
	br, err := r.bssReloadOf(next)
	if err != nil {
		return err
	}
	nat := next.Core.Airtime
	if !br.sameSet { // the running BSSes keep their airtime keys
		nat.BSS = append(nat.BSS[:1:1], r.cur.Core.Airtime.BSS[1:]...)
	}
	if !reflect.DeepEqual(nat, r.cur.Core.Airtime) {
		rc.Airtime = &nat
	}
	rc.BSSes, rc.BSSPSKs = br.restarts, br.psks
	r.logBSSReload(next, br)
	if rc.PSKs, err = ap.ReloadPSKs(r.cur.Core.RSN, next.Core.RSN, r.cur.Core.SSID); err != nil {
		return fmt.Errorf("wpa_psk_file, wpa_psk, wpa_passphrase, sae_password and sae_password_file: %w", err)
	}
	if rc.ACL == nil && rc.AirtimeWeight == 0 && rc.Airtime == nil && rc.PSKs == nil && len(rc.BSSes) == 0 && len(rc.BSSPSKs) == 0 { // nothing changed
		return nil
	}
	removed, err := r.srv.Reconfigure(ctx, rc)
	if err != nil {
		return fmt.Errorf("access lists, airtime keys, PSKs and bss= sections: %w", err)
	}
	for _, b := range rc.BSSes {
		r.cur.Core.BSSes[b.Index-1] = b.Config
		r.log.Info("reload: restarted the BSS alone, its stations deauthenticated; the others keep theirs", "bss", b.Config.Name,
			"keys", strings.Join(br.changed[b.Config.Name], " "))
	}
	for _, p := range rc.BSSPSKs {
		c := &r.cur.Core.BSSes[p.Index-1]
		c.RSN = br.secrets[p.Index]
		r.log.Info("reload: applied the BSS's PSKs and SAE passwords; its stations whose key is gone are deauthenticated", "bss", c.Name, "entries", len(c.RSN.PSKs))
	}
	if rc.AirtimeWeight != 0 {
		r.cur.Core.AirtimeWeight = weight
		r.log.Info("reload: applied (stations associating from now on)", "airtime_weight", weight)
	}
	if rc.Airtime != nil {
		r.cur.Core.Airtime = *rc.Airtime
		r.log.Info("reload: applied", "airtime_mode", int(rc.Airtime.Mode), "airtime_update_interval", rc.Airtime.Interval,
			"airtime_bss_weight", airtimeFirst(rc.Airtime).Weight, "airtime_bss_cap", airtimeFirst(rc.Airtime).CapPercent,
			"airtime_sta_weight", len(airtimeFirst(rc.Airtime).StaWeights))
	}
	if rc.ACL != nil {
		r.cur.Core.ACL = nacl
		r.log.Info("reload: applied", "macaddr_acl", int(nacl.Mode), "accept", len(nacl.Accept), "deny", len(nacl.Deny))
	}
	if rc.PSKs != nil {
		r.cur.Core.RSN = r.cur.Core.RSN.Reloaded(next.Core.RSN)
		r.log.Info("reload: applied the PSKs and SAE passwords (wpa_passphrase, wpa_psk, wpa_psk_file, sae_password, sae_password_file)", "entries", len(next.Core.RSN.PSKs))
	}
	for _, m := range removed {
		r.log.Info("reload: deauthenticated a station the access lists or the PSKs now refuse", "sta", m)
	}
	return nil
}

// reloadPSKsFor applies next's PSKs of BSS i (0 the first, i the bss=
// section i) alone, as hostapd's RELOAD_WPA_PSK on that BSS's socket;
// its stations whose key is gone are deauthenticated, the other BSSes'
// are left alone. Call it with mu held.
func (r *reloader) reloadPSKsFor(ctx context.Context, next *options, i int) error {
	cur, nrsn, ssid := &r.cur.Core.RSN, next.Core.RSN, r.cur.Core.SSID
	log := r.log
	if i > 0 {
		if i > len(r.cur.Core.BSSes) || i > len(next.Core.BSSes) || next.BSSes[i-1].Name != r.cur.BSSes[i-1].Name {
			return fmt.Errorf("bss %d: not the running section of the file; restart airqd to apply the file's sections", i)
		}
		cur, nrsn, ssid = &r.cur.Core.BSSes[i-1].RSN, next.Core.BSSes[i-1].RSN, r.cur.Core.BSSes[i-1].SSID
		log = log.With("bss", r.cur.BSSes[i-1].Name)
	}
	psks, err := ap.ReloadPSKs(*cur, nrsn, ssid)
	if err != nil {
		return fmt.Errorf("wpa_psk_file, wpa_psk and wpa_passphrase: %w", err)
	}
	if psks == nil {
		return nil // open, or the same keys
	}
	rc := shell.Reconfig{PSKs: psks}
	if i > 0 {
		rc = shell.Reconfig{BSSPSKs: []shell.BSSPSKs{{Index: i, PSKs: psks}}}
	}
	removed, err := r.srv.Reconfigure(ctx, rc)
	if err != nil {
		return err
	}
	*cur = (*cur).Reloaded(nrsn)
	log.Info("RELOAD_WPA_PSK: applied the PSKs", "entries", len(nrsn.PSKs))
	for _, m := range removed {
		log.Info("RELOAD_WPA_PSK: deauthenticated a station whose PSK is gone", "sta", m)
	}
	return nil
}

// airtimeFirst is the first BSS's airtime keys.
func airtimeFirst(a *ap.Airtime) ap.BSSAirtime {
	if len(a.BSS) == 0 {
		return ap.BSSAirtime{}
	}
	return a.BSS[0]
}
