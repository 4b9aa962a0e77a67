package ctl

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
)

// MarshalJSON prints the status as one flat object with the keys of the
// text form, in its order: the counters sit beside the other fields, under
// their keys, as `airqctl status` prints them.
func (s Status) MarshalJSON() ([]byte, error) {
	v := reflect.ValueOf(&s).Elem()
	b := []byte{'{'}
	for i, f := range recStatus.fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, f.key)
		b = append(b, ':')
		j, err := json.Marshal(f.value(v).Interface())
		if err != nil {
			return nil, err
		}
		b = append(b, j...)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads the object MarshalJSON prints. As with encoding/json,
// unknown keys are ignored and absent ones leave their field alone.
func (s *Status) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	v := reflect.ValueOf(s).Elem()
	for k, raw := range m {
		f, ok := recStatus.byKey[k]
		if !ok {
			continue
		}
		if err := json.Unmarshal(raw, f.value(v).Addr().Interface()); err != nil {
			return fmt.Errorf("status %s: %w", k, err)
		}
	}
	return nil
}
