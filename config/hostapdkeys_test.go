package config

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// hostapd210Keys are the keys hostapd 2.10's parser accepts; regenerate
// with the command in internal/tools/hostapdkeys.
func hostapd210Keys(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/hostapd-2.10-keys.txt")
	if err != nil {
		t.Fatal(err)
	}
	keys := strings.Fields(string(b))
	if len(keys) < 500 {
		t.Fatalf("%d keys in testdata/hostapd-2.10-keys.txt", len(keys))
	}
	return keys
}

// Every key hostapd 2.10 accepts has an answer, and airq knows no other
// key than those and its own.
func TestEveryHostapdKeyClassified(t *testing.T) {
	want := hostapd210Keys(t)
	known := Known()
	for _, k := range want {
		if !slices.Contains(known, k) {
			t.Errorf("%s: hostapd 2.10 accepts it and airq has no answer for it", k)
		}
		if IsOwnKey(k) {
			t.Errorf("%s: listed as airq's own, but it is hostapd's", k)
		}
	}
	for _, k := range known {
		if !slices.Contains(want, k) && !IsOwnKey(k) && !slices.Contains(newerKeys, k) && !slices.Contains(openWrtKeys, k) {
			t.Errorf("%s: airq knows it, but hostapd 2.10 does not have it and it is neither airq's own (ownKeys), newer hostapd's (newerKeys) nor OpenWrt's (openWrtKeys)", k)
		}
	}
	for _, k := range newerKeys {
		if slices.Contains(want, k) || IsOwnKey(k) {
			t.Errorf("%s: in newerKeys but hostapd 2.10's or airq's own", k)
		}
		if _, ok := keys[k]; !ok {
			t.Errorf("%s: in newerKeys but not a key of airq", k)
		}
	}
	for _, k := range ownKeys {
		if _, ok := keys[k]; !ok {
			t.Errorf("%s: in ownKeys but not a key of airq", k)
		}
	}
	if len(classifiedTwice) > 0 {
		t.Errorf("classified twice: %v", classifiedTwice)
	}
}
