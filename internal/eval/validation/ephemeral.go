package validation

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ephemeralAllowed are the fields of an ephemeral container that may be set
// (by their Go names): a debugging container may not be relied upon for the
// Pod's work, so ports, resources, probes, lifecycle hooks and restart rules
// are refused (VAL-12).
var ephemeralAllowed = map[string]bool{
	"Name": true, "Image": true, "Command": true, "Args": true, "WorkingDir": true,
	"EnvFrom": true, "Env": true, "VolumeMounts": true, "VolumeDevices": true,
	"TerminationMessagePath": true, "TerminationMessagePolicy": true, "ImagePullPolicy": true,
	"SecurityContext": true, "Stdin": true, "StdinOnce": true, "TTY": true,
}

const msgNotForEphemeral = "cannot be set for an Ephemeral Container"

// validateEphemeralContainers (VAL-12): each ephemeral container is checked
// as any container, its image may not have surrounding whitespace (in
// templates too), its name must be unique across all containers, its target
// must be a regular or init container, only the fields of ephemeralAllowed
// may be set, and its mounts may not use subPath or subPathExpr. A Pod's
// create and a template refuse ephemeral containers anyway; these errors
// come first, as upstream's spec validation runs before that rule.
func validateEphemeralContainers(spec *corev1.PodSpec, vols map[string]corev1.VolumeSource, claims map[string]bool, p lazyPath, opts podOptions, hostUsers bool) field.ErrorList {
	if len(spec.EphemeralContainers) == 0 {
		return nil
	}
	others, all := map[string]bool{}, map[string]bool{}
	for _, cs := range [][]corev1.Container{spec.Containers, spec.InitContainers} {
		for i := range cs {
			others[cs[i].Name] = true
			all[cs[i].Name] = true
		}
	}
	var errs field.ErrorList
	for i := range spec.EphemeralContainers {
		ec := &spec.EphemeralContainers[i]
		cp := p.Index(i)
		c := corev1.Container(ec.EphemeralContainerCommon)
		errs = append(errs, validateContainerCommon(&c, vols, claims, cp, spec.RestartPolicy, hostUsers, opts)...)
		if len(c.Image) != len(strings.TrimSpace(c.Image)) {
			errs = append(errs, field.Invalid(cp.Child("image").Path(), c.Image, msgImageSpaces))
		}
		if all[ec.Name] {
			errs = append(errs, field.Duplicate(cp.Child("name").Path(), ec.Name))
		} else {
			all[ec.Name] = true
		}
		if t := ec.TargetContainerName; t != "" && !others[t] {
			errs = append(errs, field.NotFound(cp.Child("targetContainerName").Path(), t))
		}
		errs = append(errs, ephemeralFieldsSet(&ec.EphemeralContainerCommon, cp)...)
		for j, m := range ec.VolumeMounts {
			mp := cp.Child("volumeMounts").Index(j)
			if m.SubPath != "" {
				errs = append(errs, field.Forbidden(mp.Child("subPath").Path(), msgNotForEphemeral))
			}
			if m.SubPathExpr != "" {
				errs = append(errs, field.Forbidden(mp.Child("subPathExpr").Path(), msgNotForEphemeral))
			}
		}
	}
	return errs
}

// ephemeralFieldsSet refuses every field of c, in declaration order, that is
// set (not its zero value) and not in ephemeralAllowed; the path is the Go
// name with its first letter lowered, as upstream builds it.
func ephemeralFieldsSet(c *corev1.EphemeralContainerCommon, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	v := reflect.ValueOf(c).Elem()
	t := v.Type()
	for i := range t.NumField() {
		name := t.Field(i).Name
		if ephemeralAllowed[name] || v.Field(i).IsZero() {
			continue
		}
		r, n := utf8.DecodeRuneInString(name)
		errs = append(errs, field.Forbidden(p.Child(string(unicode.ToLower(r))+name[n:]).Path(), msgNotForEphemeral))
	}
	return errs
}
