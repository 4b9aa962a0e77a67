package main

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/config"
	"github.com/airq/airq/shell"
)

// A reload compares the file's bss= sections with the running ones by
// name. hostapd 2.10 deauthenticates every station of every BSS on a
// reload; airqd restarts only a BSS whose section changed (ap.AP.RestartBSS:
// its stations deauthenticated, it is made anew from its section, its
// RSN with it: new authenticator, group keys, PSKs, SAE PTs and PMKSA
// cache), and the other BSSes keep their stations and keys. A section
// whose secrets alone changed (wpa_passphrase, wpa_psk, wpa_psk_file and
// sae_password lines, or the files' contents) keeps its BSS running and
// reloads its keys, as hostapd's RELOAD_WPA_PSK on that BSS's socket:
// only its stations whose key is gone are deauthenticated. The first
// section's keys are the radio's and the first BSS's and go through the
// reload of the keys one by one (reload.go). A section's airtime keys
// apply live with the radio's policy; its bssid=, tap= and bridge= take a
// start (an ACK holder holds the BSSID, the shell opened the TAP): they
// are logged, not applied. Sections added, removed or reordered restart
// the radio (reload_sections.go).

// startOnlyBSSKeys are the BSS keys that a BSS restart does not apply.
var startOnlyBSSKeys = map[string]bool{"bssid": true, "tap": true, "bridge": true, "ctrl_interface": true, "ctrl_interface_group": true}

// bssReload is what a reload does to the BSSes after the first.
type bssReload struct {
	restarts []shell.BSSRestart
	// psks are the sections whose secrets alone changed: their keys,
	// derived here, off the loop; secrets their running RSN with the
	// file's secrets (ap.RSNConfig.Reloaded), by BSS index.
	psks    []shell.BSSPSKs
	secrets map[int]*ap.RSNConfig
	// sameSet: next has the running sections, by name, in the running
	// order; without it nothing of the sections is applied.
	sameSet bool
	// changed are each section's changed keys, by section name, for the
	// log: those restarting the BSS and those only a start applies.
	changed, startOnly map[string][]string
}

// bssReloadOf compares next's sections with the running ones.
func (r *reloader) bssReloadOf(next *options) (bssReload, error) {
	out := bssReload{changed: map[string][]string{}, startOnly: map[string][]string{}, secrets: map[int]*ap.RSNConfig{}}
	if out.sameSet = slices.Equal(sectionNames(&r.cur), sectionNames(next)); !out.sameSet {
		return out, nil
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
		cur := r.cur.Core.BSSes[i]
		c.BSSID, c.Holder, c.TAP = cur.BSSID, cur.Holder, cur.TAP
		if len(out.changed[b.Name]) == 0 && !reflect.DeepEqual(c, cur) {
			psks, err := sectionPSKs(cur, c)
			if err != nil {
				return out, fmt.Errorf("bss %s: wpa_psk_file, wpa_psk, wpa_passphrase, sae_password and sae_password_file: %w", b.Name, err)
			}
			if psks != nil {
				out.psks = append(out.psks, shell.BSSPSKs{Index: i + 1, PSKs: psks})
				out.secrets[i+1] = cur.RSN.Reloaded(c.RSN)
				continue
			}
			// the same lines, but a file they name changed
			what := "wpa_psk_file/sae_password_file contents"
			if !reflect.DeepEqual(c.ACL, cur.ACL) {
				what = "accept_mac_file/deny_mac_file contents"
			}
			out.changed[b.Name] = append(out.changed[b.Name], what)
		}
		if len(out.changed[b.Name]) == 0 {
			continue
		}
		restart := shell.BSSRestart{Index: i + 1, Config: c}
		if c.RSN != nil { // the keys derived here, off the loop
			var err error
			if restart.Keys, err = ap.DerivePSKs(c.RSN, c.SSID); err != nil {
				return out, fmt.Errorf("bss %s: %w", b.Name, err)
			}
		}
		out.restarts = append(out.restarts, restart)
	}
	return out, nil
}

// sectionPSKs derives the keys of next's section when its secrets alone
// differ from the running section cur's (nothing else, secured both); nil
// otherwise: the same keys, or more changed, which restarts the BSS.
func sectionPSKs(cur, next ap.BSSConfig) (*ap.PSKs, error) {
	if cur.RSN == nil || next.RSN == nil || cur.RSN.SameSecrets(next.RSN) {
		return nil, nil
	}
	keys := next
	keys.RSN = cur.RSN.Reloaded(next.RSN)
	if !reflect.DeepEqual(keys, next) {
		return nil, nil
	}
	return ap.ReloadPSKs(cur.RSN, next.RSN, cur.SSID)
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
	if !br.sameSet { // a reloader with no radio to restart (the radio's restart it is, reload_sections.go)
		r.log.Warn("reload: bss= sections added, removed or reordered: restart airqd to apply them; the running BSSes keep their settings and stations",
			"running", strings.Join(sectionNames(&r.cur), " "), "file", strings.Join(sectionNames(next), " "))
		return
	}
	for _, b := range next.BSSes {
		for _, key := range br.startOnly[b.Name] {
			r.log.Warn("reload: key changed; restart airqd to apply it", "bss", b.Name, "key", key)
		}
	}
}
