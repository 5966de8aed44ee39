package validation

// CustomResourceDefinition validation on create (VAL-93..VAL-99): what
// apiextensions-apiserver's CRD strategy checks after the v1 defaults and
// the conversion to its internal version. The rules are upstream's (package
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation and the
// structural-schema checks of pkg/apiserver/schema); the code is
// limitcheck's own, written against the internal types so that the error
// values print as upstream prints them. x-kubernetes-validations rules are
// not compiled: CEL is not linked into limitcheck.

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// PrepareCRDForCreate applies what happens to a CustomResourceDefinition
// before its validation (VAL-93): the v1 defaults (singular, listKind,
// conversion strategy None, a conversion service's port 443), the conversion
// to the internal version (a field every version sets alike moves to the
// spec: schema, subresources, printer columns, selectable fields; the first
// version's name becomes spec.version), and the strategy's PrepareForCreate
// (status replaced, generation 1, the storage version stored).
func PrepareCRDForCreate(in *apiextensionsv1.CustomResourceDefinition) (*apiextensions.CustomResourceDefinition, error) {
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(in)
	out := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(in, out, nil); err != nil {
		return nil, err
	}
	out.Status = apiextensions.CustomResourceDefinitionStatus{}
	out.Generation = 1
	for _, v := range out.Spec.Versions {
		if v.Storage {
			out.Status.StoredVersions = append(out.Status.StoredVersions, v.Name)
			break
		}
	}
	return out, nil
}

// CustomResourceDefinition validates a prepared CRD as
// ValidateCustomResourceDefinition does on create: the metadata (VAL-93),
// the spec (VAL-94..VAL-98), the stored versions, the API approval of
// protected groups and preserveUnknownFields (VAL-99).
func CustomResourceDefinition(c *apiextensions.CustomResourceDefinition, compile CRDRuleCompiler) field.ErrorList {
	required := c.Spec.Names.Plural + "." + c.Spec.Group
	name := func(name string, prefix bool) []string {
		msgs := namecheck.NameIsDNSSubdomain(name, prefix)
		if name != required {
			msgs = append(msgs, `must be spec.names.plural+"."+spec.group`)
		}
		return msgs
	}
	errs := ObjectMeta(&c.ObjectMeta, MetaRules{Name: name, ClusterScoped: true, SetsGeneration: true}, field.NewPath("metadata"))
	errs = append(errs, crdSpec(&c.Spec, field.NewPath("spec"), compile)...)
	errs = append(errs, crdNames(&c.Status.AcceptedNames, field.NewPath("status", "acceptedNames"))...)
	errs = append(errs, storedVersions(c.Status.StoredVersions, c.Spec.Versions, field.NewPath("status", "storedVersions"))...)
	errs = append(errs, apiApproval(c)...)
	if p := c.Spec.PreserveUnknownFields; p != nil && *p {
		errs = append(errs, field.Invalid(field.NewPath("spec", "preserveUnknownFields"), p,
			"cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"))
	}
	return errs
}

func crdSpec(spec *apiextensions.CustomResourceDefinitionSpec, p *field.Path, compile CRDRuleCompiler) field.ErrorList {
	var errs field.ErrorList
	switch {
	case spec.Group == "":
		errs = append(errs, field.Required(p.Child("group"), ""))
	case len(utilvalidation.IsDNS1123Subdomain(spec.Group)) > 0:
		errs = append(errs, field.Invalid(p.Child("group"), spec.Group, strings.Join(utilvalidation.IsDNS1123Subdomain(spec.Group), ",")))
	case !strings.Contains(spec.Group, "."):
		errs = append(errs, field.Invalid(p.Child("group"), spec.Group, "should be a domain with at least one dot"))
	}
	errs = append(errs, enumString(p.Child("scope"), string(spec.Scope), []string{"Cluster", "Namespaced"})...)

	// Unset counts as true here (the v1 conversion always sets it).
	preserves := spec.PreserveUnknownFields == nil || *spec.PreserveUnknownFields
	if spec.Validation == nil || spec.Validation.OpenAPIV3Schema == nil {
		for i, v := range spec.Versions {
			if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				errs = append(errs, field.Required(p.Child("versions").Index(i).Child("schema", "openAPIV3Schema"), ""))
			}
		}
	}
	if specHas(spec, func(s *apiextensions.JSONSchemaProps) bool { return s.Default != nil }) && preserves {
		errs = append(errs, field.Invalid(p.Child("preserveUnknownFields"), true, "must be false in order to use defaults in the schema"))
	}

	storage, seen, unique := 0, map[string]bool{}, true
	for i := range spec.Versions {
		v := &spec.Versions[i]
		vp := p.Child("versions").Index(i)
		if v.Storage {
			storage++
		}
		if seen[v.Name] {
			unique = false
		}
		seen[v.Name] = true
		if msgs := utilvalidation.IsDNS1035Label(v.Name); len(msgs) > 0 {
			errs = append(errs, field.Invalid(vp.Child("name"), v.Name, strings.Join(msgs, ",")))
		}
		errs = append(errs, crdVersion(spec, v, vp, compile)...)
	}
	// The spec-level fields and the per-version ones cannot both be set after
	// the conversion from v1 (which moves only identical ones up), nor can
	// the per-version ones all be equal: those checks never fail on a v1
	// create and are left out.
	if !unique {
		errs = append(errs, field.Invalid(p.Child("versions"), spec.Versions, "must contain unique version names"))
	}
	if storage != 1 {
		errs = append(errs, field.Invalid(p.Child("versions"), spec.Versions, "must have exactly one version marked as storage version"))
	}
	if spec.Version != "" {
		if msgs := utilvalidation.IsDNS1035Label(spec.Version); len(msgs) > 0 {
			errs = append(errs, field.Invalid(p.Child("version"), spec.Version, strings.Join(msgs, ",")))
		}
	}

	names := p.Child("names")
	for _, n := range []struct{ field, value string }{
		{"plural", spec.Names.Plural}, {"singular", spec.Names.Singular}, {"kind", spec.Names.Kind}, {"listKind", spec.Names.ListKind},
	} {
		if n.value == "" {
			errs = append(errs, field.Required(names.Child(n.field), ""))
		}
	}
	errs = append(errs, crdNames(&spec.Names, names)...)
	errs = append(errs, crdSchema(spec.Validation, anyStatus(spec), p.Child("validation"), compile)...)
	errs = append(errs, crdSubresources(spec.Subresources, p.Child("subresources"))...)
	for i := range spec.AdditionalPrinterColumns {
		errs = append(errs, printerColumn(&spec.AdditionalPrinterColumns[i], p.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(spec.SelectableFields) > 0 {
		if spec.Validation == nil {
			errs = append(errs, field.Invalid(p.Child("selectableFields"), "", "may only be set when validations.schema is included"))
		} else {
			errs = append(errs, selectableFields(spec.SelectableFields, spec.Validation.OpenAPIV3Schema, p, p.Child("selectableFields"))...)
		}
	}
	if c := spec.Conversion; c != nil && c.Strategy != apiextensions.NoneConverter && preserves {
		errs = append(errs, field.Invalid(p.Child("conversion", "strategy"), c.Strategy, "must be None if spec.preserveUnknownFields is true"))
	}
	return append(errs, crdConversion(spec.Conversion, p.Child("conversion"))...)
}

// crdVersion checks one of spec.versions: its deprecation warning, its own
// schema, subresources, printer columns and selectable fields.
func crdVersion(spec *apiextensions.CustomResourceDefinitionSpec, v *apiextensions.CustomResourceDefinitionVersion, p *field.Path, compile CRDRuleCompiler) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range deprecationWarning(v.Deprecated, v.DeprecationWarning) {
		errs = append(errs, field.Invalid(p.Child("deprecationWarning"), v.DeprecationWarning, msg))
	}
	// The status subresource of this version: the spec's when no version
	// has its own, else that of the first version of its name (of two
	// versions of one name, the first's: upstream looks it up by name).
	sub := spec.Subresources
	for _, o := range spec.Versions {
		if o.Subresources != nil {
			i := slices.IndexFunc(spec.Versions, func(w apiextensions.CustomResourceDefinitionVersion) bool { return w.Name == v.Name })
			sub = spec.Versions[i].Subresources
			break
		}
	}
	errs = append(errs, crdSchema(v.Schema, sub != nil && sub.Status != nil, p.Child("schema"), compile)...)
	errs = append(errs, crdSubresources(v.Subresources, p.Child("subresources"))...)
	for i := range v.AdditionalPrinterColumns {
		errs = append(errs, printerColumn(&v.AdditionalPrinterColumns[i], p.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(v.SelectableFields) > 0 {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			errs = append(errs, field.Invalid(p.Child("selectableFields"), "", "may only be set when `version.schema.openAPIV3Schema` is not included"))
		} else {
			errs = append(errs, selectableFields(v.SelectableFields, v.Schema.OpenAPIV3Schema, p, p.Child("selectableFields"))...)
		}
	}
	return errs
}

func deprecationWarning(deprecated bool, w *string) []string {
	if !deprecated && w != nil {
		return []string{"can only be set for deprecated versions"}
	}
	if w == nil {
		return nil
	}
	var msgs []string
	if len(*w) > 256 {
		msgs = append(msgs, "must be <= 256 characters long")
	}
	if *w == "" {
		msgs = append(msgs, "must not be an empty string")
	}
	for i, r := range *w {
		if !unicode.IsPrint(r) {
			msgs = append(msgs, fmt.Sprintf("must only contain printable UTF-8 characters; non-printable character found at index %d", i))
			break
		}
		if unicode.IsControl(r) {
			msgs = append(msgs, fmt.Sprintf("must only contain printable UTF-8 characters; control character found at index %d", i))
			break
		}
	}
	if !utf8.ValidString(*w) {
		msgs = append(msgs, "must only contain printable UTF-8 characters")
	}
	return msgs
}

func enumString(p *field.Path, value string, accepted []string) field.ErrorList {
	if value == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	if slices.Contains(accepted, value) {
		return nil
	}
	return field.ErrorList{field.NotSupported(p, value, accepted)}
}

// crdNames checks spec.names (and the status's accepted names, empty on
// create): DNS-1035 labels, kinds but for their case, and a listKind that
// is not the kind.
func crdNames(n *apiextensions.CustomResourceDefinitionNames, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	label := func(fp *field.Path, value string, mixedCase bool) {
		check := value
		if mixedCase {
			check = strings.ToLower(value)
		}
		if msgs := utilvalidation.IsDNS1035Label(check); value != "" && len(msgs) > 0 {
			msg := strings.Join(msgs, ",")
			if mixedCase {
				msg = "may have mixed case, but should otherwise match: " + msg
			}
			errs = append(errs, field.Invalid(fp, value, msg))
		}
	}
	label(p.Child("plural"), n.Plural, false)
	label(p.Child("singular"), n.Singular, false)
	label(p.Child("kind"), n.Kind, true)
	label(p.Child("listKind"), n.ListKind, true)
	for i, s := range n.ShortNames {
		if msgs := utilvalidation.IsDNS1035Label(s); len(msgs) > 0 {
			errs = append(errs, field.Invalid(p.Child("shortNames").Index(i), s, strings.Join(msgs, ",")))
		}
	}
	if n.Kind != "" && n.Kind == n.ListKind {
		errs = append(errs, field.Invalid(p.Child("listKind"), n.ListKind, "kind and listKind may not be the same"))
	}
	for i, c := range n.Categories {
		if msgs := utilvalidation.IsDNS1035Label(c); len(msgs) > 0 {
			errs = append(errs, field.Invalid(p.Child("categories").Index(i), c, strings.Join(msgs, ",")))
		}
	}
	return errs
}

// storedVersions: after PrepareForCreate the stored versions are the first
// storage version, so a CRD without one has none, and the second of two
// storage versions is missing from them. Each stored version answers for
// one version only: a second version of the same name that is a storage
// version is missing from them too (two v1 both storage).
func storedVersions(stored []string, versions []apiextensions.CustomResourceDefinitionVersion, p *field.Path) field.ErrorList {
	if len(stored) == 0 {
		return field.ErrorList{field.Invalid(p, stored, "must have at least one stored version")}
	}
	var errs field.ErrorList
	unmatched := slices.Clone(stored)
	for _, v := range versions {
		i := slices.Index(unmatched, v.Name)
		if v.Storage && i < 0 {
			errs = append(errs, field.Invalid(p, stored, "must have the storage version "+v.Name))
		}
		if i >= 0 {
			unmatched = slices.DeleteFunc(unmatched, func(s string) bool { return s == v.Name })
		}
	}
	return errs
}

// apiApprovalAnnotation is the annotation a CRD of a protected group
// (k8s.io, kubernetes.io and their subdomains) must carry.
const apiApprovalAnnotation = "api-approved.kubernetes.io"

func apiApproval(c *apiextensions.CustomResourceDefinition) field.ErrorList {
	g := c.Spec.Group
	if g != "k8s.io" && !strings.HasSuffix(g, ".k8s.io") && g != "kubernetes.io" && !strings.HasSuffix(g, ".kubernetes.io") {
		return nil
	}
	p := field.NewPath("metadata", "annotations").Key(apiApprovalAnnotation)
	a := c.Annotations[apiApprovalAnnotation]
	u, err := url.ParseRequestURI(a)
	switch {
	case a == "":
		return field.ErrorList{field.Required(p, fmt.Sprintf("protected groups must have approval annotation %q, see https://github.com/kubernetes/enhancements/pull/1111", apiApprovalAnnotation))}
	case strings.HasPrefix(a, "unapproved"), err == nil && u != nil && u.Host != "" && u.Scheme != "":
		return nil
	}
	return field.ErrorList{field.Invalid(p, a, fmt.Sprintf("protected groups must have approval annotation %q with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111", apiApprovalAnnotation))}
}

// crdConversion checks spec.conversion (VAL-98).
func crdConversion(c *apiextensions.CustomResourceConversion, p *field.Path) field.ErrorList {
	if c == nil {
		return nil
	}
	errs := enumString(p.Child("strategy"), string(c.Strategy), []string{"None", "Webhook"})
	if c.Strategy != apiextensions.WebhookConverter {
		if c.WebhookClientConfig != nil {
			errs = append(errs, field.Forbidden(p.Child("webhookClientConfig"), "should not be set when strategy is not set to Webhook"))
		}
		if len(c.ConversionReviewVersions) > 0 {
			errs = append(errs, field.Forbidden(p.Child("conversionReviewVersions"), "should not be set when strategy is not set to Webhook"))
		}
		return errs
	}
	if cc := c.WebhookClientConfig; cc == nil {
		errs = append(errs, field.Required(p.Child("webhookClientConfig"), "required when strategy is set to Webhook"))
	} else {
		// The same url and service rules as admission webhooks' (VAL-81);
		// the caBundle is not checked while the CRD is not established.
		wc := &admissionregistrationv1.WebhookClientConfig{URL: cc.URL}
		if s := cc.Service; s != nil {
			port := s.Port
			wc.Service = &admissionregistrationv1.ServiceReference{Namespace: s.Namespace, Name: s.Name, Path: s.Path, Port: &port}
		}
		errs = append(errs, webhookClientConfig(wc, p.Child("webhookClientConfig"))...)
	}
	vp := p.Child("conversionReviewVersions")
	if len(c.ConversionReviewVersions) == 0 {
		return append(errs, field.Required(vp, ""))
	}
	seen, known := map[string]bool{}, false
	for i, v := range c.ConversionReviewVersions {
		if seen[v] {
			errs = append(errs, field.Invalid(vp.Index(i), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, msg := range utilvalidation.IsDNS1035Label(v) {
			errs = append(errs, field.Invalid(vp.Index(i), v, msg))
		}
		known = known || v == "v1" || v == "v1beta1"
	}
	if !known {
		errs = append(errs, field.Invalid(vp, c.ConversionReviewVersions, "must include at least one of v1, v1beta1"))
	}
	return errs
}

// crdSubresources checks the scale subresource's paths (VAL-96).
func crdSubresources(s *apiextensions.CustomResourceSubresources, p *field.Path) field.ErrorList {
	if s == nil || s.Scale == nil {
		return nil
	}
	var errs field.ErrorList
	// under checks a path that must start with one of prefixes; bad is the
	// error when it does not.
	under := func(path string, fp *field.Path, bad *field.Error, prefixes ...string) {
		if e := simpleJSONPath(path, fp); len(e) > 0 {
			errs = append(errs, e...)
			return
		}
		for _, pre := range prefixes {
			if strings.HasPrefix(path, pre) {
				return
			}
		}
		errs = append(errs, bad)
	}
	sc := s.Scale
	if sc.SpecReplicasPath == "" {
		errs = append(errs, field.Required(p.Child("scale.specReplicasPath"), ""))
	} else {
		fp := p.Child("scale.specReplicasPath")
		under(sc.SpecReplicasPath, fp, field.Invalid(fp, sc.SpecReplicasPath, "should be a json path under .spec"), ".spec.")
	}
	if sc.StatusReplicasPath == "" {
		errs = append(errs, field.Required(p.Child("scale.statusReplicasPath"), ""))
	} else {
		fp := p.Child("scale.statusReplicasPath")
		under(sc.StatusReplicasPath, fp, field.Invalid(fp, sc.StatusReplicasPath, "should be a json path under .status"), ".status.")
	}
	if sc.LabelSelectorPath != nil && *sc.LabelSelectorPath != "" {
		fp := p.Child("scale.labelSelectorPath")
		under(*sc.LabelSelectorPath, fp, field.Invalid(fp, sc.LabelSelectorPath, "should be a json path under either .spec or .status"), ".spec.", ".status.")
	}
	return errs
}

// simpleJSONPath: a path that starts with a dot (the dot-notation rule
// upstream adds after that cannot fail).
func simpleJSONPath(s string, p *field.Path) field.ErrorList {
	switch {
	case s == "":
		return field.ErrorList{field.Invalid(p, s, "must not be empty")}
	case s[0] != '.':
		return field.ErrorList{field.Invalid(p, s, "must be a simple json path starting with .")}
	}
	return nil
}

var (
	printerColumnTypes   = []string{"boolean", "date", "integer", "number", "string"}
	printerColumnFormats = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}
)

// printerColumn checks one additionalPrinterColumns entry (VAL-96).
func printerColumn(c *apiextensions.CustomResourceColumnDefinition, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if c.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	types := "must be one of " + strings.Join(printerColumnTypes, ",")
	if c.Type == "" {
		errs = append(errs, field.Required(p.Child("type"), types))
	} else if !slices.Contains(printerColumnTypes, c.Type) {
		errs = append(errs, field.Invalid(p.Child("type"), c.Type, types))
	}
	if c.Format != "" && !slices.Contains(printerColumnFormats, c.Format) {
		errs = append(errs, field.Invalid(p.Child("format"), c.Format, "must be one of "+strings.Join(printerColumnFormats, ",")))
	}
	if c.JSONPath == "" {
		errs = append(errs, field.Required(p.Child("JSONPath"), ""))
	} else {
		errs = append(errs, simpleJSONPath(c.JSONPath, p.Child("JSONPath"))...)
	}
	return errs
}

// maxSelectableFields is how many selectable fields a version may have.
const maxSelectableFields = 8

// selectableFields checks selectableFields against the schema they select
// from (VAL-96). vp is the version's (or the spec's) path, for the error of
// a schema that cannot be read as structural.
func selectableFields(fields []apiextensions.SelectableField, s *apiextensions.JSONSchemaProps, vp, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if err := notStructural(s); err != "" {
		errs = append(errs, field.Invalid(vp.Child("schema.openAPIV3Schema"), "", err))
	}
	unique := map[string]bool{}
	for i, f := range fields {
		fp := p.Index(i).Child("jsonPath")
		if f.JSONPath == "" {
			errs = append(errs, field.Required(fp, ""))
			continue
		}
		path, found, err := fieldPathIn(f.JSONPath, s, false)
		if err != "" {
			errs = append(errs, field.Invalid(fp, f.JSONPath, "is an invalid path: "+err))
			continue
		}
		if path.Root().String() == "metadata" {
			errs = append(errs, field.Invalid(fp, f.JSONPath, "must not point to fields in metadata"))
		}
		if found == nil || (found.Type != "string" && found.Type != "boolean" && found.Type != "integer") {
			errs = append(errs, field.Invalid(fp, f.JSONPath, "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."))
		}
		if unique[path.String()] {
			errs = append(errs, field.Duplicate(fp, f.JSONPath))
		}
		unique[path.String()] = true
	}
	if len(unique) > maxSelectableFields {
		errs = append(errs, field.TooMany(p, len(unique), maxSelectableFields))
	}
	return errs
}

// fieldPathIn follows a JSON path (.a.b, ['a'] when brackets are allowed)
// through the schema's properties and map values, as upstream's
// ValidFieldPath does for selectable fields and for the fieldPath of
// x-kubernetes-validations rules. It returns the field path, the schema
// found, and what is wrong with the path.
func fieldPathIn(jsonPath string, s *apiextensions.JSONSchemaProps, brackets bool) (*field.Path, *apiextensions.JSONSchemaProps, string) {
	var path *field.Path
	step := func(name string) string {
		switch {
		case s == nil:
			return "does not refer to a valid field"
		case len(s.Properties) > 0:
			c, ok := s.Properties[name]
			if !ok {
				return "does not refer to a valid field"
			}
			path, s = path.Child(name), &c
		case s.AdditionalProperties != nil:
			path, s = path.Key(name), s.AdditionalProperties.Schema
		default:
			return "does not refer to a valid field"
		}
		return ""
	}
	toks := jsonPathTokens(jsonPath)
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "[":
			if !brackets {
				return nil, nil, "array notation is not allowed"
			}
			if i+1 >= len(toks) {
				return nil, nil, "unexpected end of JSON path"
			}
			i++
			t := toks[i]
			if len(t) < 2 || t[0] != '\'' || t[len(t)-1] != '\'' {
				return nil, nil, "expected single quoted string but got " + t
			}
			name, ok := unquoteSingle(t[1 : len(t)-1])
			if !ok {
				return nil, nil, "invalid string literal: invalid escape sequence"
			}
			if err := step(name); err != "" {
				return nil, nil, err
			}
			if i+1 >= len(toks) {
				return nil, nil, "unexpected end of JSON path"
			}
			i++
			if toks[i] != "]" {
				return nil, nil, "expected ] but got " + toks[i]
			}
		case ".":
			if i+1 >= len(toks) {
				return nil, nil, "unexpected end of JSON path"
			}
			i++
			if err := step(toks[i]); err != "" {
				return nil, nil, err
			}
		default:
			return nil, nil, "expected [ or . but got: " + toks[i]
		}
	}
	return path, s, ""
}

// jsonPathTokens splits a JSON path into '.', '[' and ']' and the text
// between them; a single-quoted string is one token.
func jsonPathTokens(s string) []string {
	var toks []string
	for len(s) > 0 {
		if s[0] == '\'' {
			end := -1
			for i := 1; i < len(s); i++ {
				if s[i] == '\'' && s[i-1] != '\\' {
					end = i
					break
				}
			}
			if end < 0 {
				toks = append(toks, s)
				break
			}
			toks, s = append(toks, s[:end+1]), s[end+1:]
			continue
		}
		if strings.IndexByte(".[]", s[0]) >= 0 {
			toks, s = append(toks, s[:1]), s[1:]
			continue
		}
		i := strings.IndexAny(s, ".[]")
		if i < 0 {
			i = len(s)
		}
		toks, s = append(toks, s[:i]), s[i:]
	}
	return toks
}

// unquoteSingle undoes the escapes \\ and \' of a single-quoted name.
func unquoteSingle(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) || (s[i+1] != '\\' && s[i+1] != '\'') {
			return "", false
		}
		i++
		b.WriteByte(s[i])
	}
	return b.String(), true
}

// anyStatus: the spec or some version has the status subresource.
func anyStatus(spec *apiextensions.CustomResourceDefinitionSpec) bool {
	if spec.Subresources != nil && spec.Subresources.Status != nil {
		return true
	}
	for _, v := range spec.Versions {
		if v.Subresources != nil && v.Subresources.Status != nil {
			return true
		}
	}
	return false
}

// specHas reports whether a node of any schema of the spec satisfies pred.
func specHas(spec *apiextensions.CustomResourceDefinitionSpec, pred func(*apiextensions.JSONSchemaProps) bool) bool {
	if spec.Validation != nil && schemaHas(spec.Validation.OpenAPIV3Schema, pred) {
		return true
	}
	for _, v := range spec.Versions {
		if v.Schema != nil && schemaHas(v.Schema.OpenAPIV3Schema, pred) {
			return true
		}
	}
	return false
}
