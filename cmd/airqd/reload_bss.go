package main

import (
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/airq/airq/config"
	"github.com/airq/airq/shell"
)

// A reload compares the file's bss= sections with the running ones by
// name. hostapd 2.10 deauthenticates every station of every BSS on a
// reload; airqd restarts only a BSS whose section changed (ap.AP.RestartBSS:
// its stations deauthenticated, it is made anew from its section), and
// the other BSSes keep their stations. The first section's keys are the
// radio's and the first BSS's and go through the reload of the keys one by
// one (reload.go). A section's airtime keys apply live with the radio's
// policy; its bssid=, tap= and bridge= take a start (an ACK holder holds
// the BSSID, the shell opened the TAP), and so do any changes of a secured
// BSS's section (its authenticator and keys are built with the radio) and
// adding, removing or reordering sections: those are logged, not applied.

// startOnlyBSSKeys are the BSS keys that a BSS restart does not apply.
var startOnlyBSSKeys = map[string]bool{"bssid": true, "tap": true, "bridge": true, "ctrl_interface": true, "ctrl_interface_group": true}

// bssReload is what a reload does to the BSSes after the first.
type bssReload struct {
	restarts []shell.BSSRestart
	// sameSet: next has the running sections, by name, in the running
	// order; without it nothing of the sections is applied.
	sameSet bool
	// changed are each section's changed keys, by section name, for the
	// log: those restarting the BSS and those only a start applies.
	changed, startOnly map[string][]string
}

// bssReloadOf compares next's sections with the running ones.
func (r *reloader) bssReloadOf(next *options) bssReload {
	out := bssReload{changed: map[string][]string{}, startOnly: map[string][]string{}}
	names := func(o *options) []string {
		var n []string
		for _, b := range o.BSSes {
			n = append(n, b.Name)
		}
		return n
	}
	if out.sameSet = slices.Equal(names(&r.cur), names(next)); !out.sameSet {
		return out
	}
	nb := next.Core.BSSes
	for i, b := range next.BSSes {
		for _, key := range changedKeys(sectionValues(r.cur.conf, b.Name), sectionValues(next.conf, b.Name)) {
			k, _ := config.Lookup(key)
			switch {
			case startOnlyBSSKeys[key]:
				out.startOnly[b.Name] = append(out.startOnly[b.Name], key)
			case !k.Reload:
				out.changed[b.Name] = append(out.changed[b.Name], key)
			}
		}
		c := nb[i]
		// The running BSSID (zero where derived: the core keeps it), ACK
		// holder and TAP: a restart of the BSS does not reopen them.
		run := r.cur.Core.BSSes[i]
		c.BSSID, c.Holder, c.TAP = run.BSSID, run.Holder, run.TAP
		if cur := r.cur.Core.BSSes[i]; len(out.changed[b.Name]) == 0 && !reflect.DeepEqual(c, cur) {
			// the same lines, but a file they name changed
			what := "wpa_psk_file/sae_password_file contents"
			if !reflect.DeepEqual(c.ACL, cur.ACL) {
				what = "accept_mac_file/deny_mac_file contents"
			}
			out.changed[b.Name] = append(out.changed[b.Name], what)
		}
		switch {
		case len(out.changed[b.Name]) == 0:
		case c.RSN != nil || r.cur.Core.BSSes[i].RSN != nil: // ap.AP.RestartBSS: with the radio only
			out.startOnly[b.Name] = append(out.startOnly[b.Name], out.changed[b.Name]...)
			delete(out.changed, b.Name)
		default:
			out.restarts = append(out.restarts, shell.BSSRestart{Index: i + 1, Config: c})
		}
	}
	return out
}

// sectionValues are the values of the section named name of f; none
// without it.
func sectionValues(f *config.File, name string) map[string]string {
	if f == nil {
		return nil
	}
	s, ok := f.Section(name)
	if !ok {
		return nil
	}
	return s.Values()
}

// changedKeys are the keys whose value differs between a and b, sorted.
func changedKeys(a, b map[string]string) []string {
	var out []string
	for k := range maps.Keys(a) {
		if v, ok := b[k]; !ok || v != a[k] {
			out = append(out, k)
		}
	}
	for k := range maps.Keys(b) {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// logBSSReload says what of next's sections a reload does not apply.
func (r *reloader) logBSSReload(next *options, br bssReload) {
	if !br.sameSet {
		var was, is []string
		for _, b := range r.cur.BSSes {
			was = append(was, b.Name)
		}
		for _, b := range next.BSSes {
			is = append(is, b.Name)
		}
		r.log.Warn("reload: bss= sections added, removed or reordered: restart airqd to apply them; the running BSSes keep their settings and stations",
			"running", strings.Join(was, " "), "file", strings.Join(is, " "))
		return
	}
	for _, b := range next.BSSes {
		for _, key := range br.startOnly[b.Name] {
			r.log.Warn("reload: key changed; restart airqd to apply it", "bss", b.Name, "key", key)
		}
	}
}
