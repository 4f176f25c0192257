{{/*
Object names are fixed (gateway, handoff-config, ...), as in the kustomize manifests, so that
both describe the same objects: install one release per namespace.
*/}}

{{/* Labels of every object: the kustomize ones plus Helm's. */}}
{{- define "handoff.labels" -}}
app.kubernetes.io/part-of: handoff
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* Labels of one service's objects; the argument is (dict "root" $ "name" $name "service" $service). */}}
{{- define "handoff.serviceLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/component: {{ .service.component }}
{{ include "handoff.labels" .root }}
{{- end -}}

{{/* Pod labels: stable across upgrades of the chart (no chart version), as selectors need. */}}
{{- define "handoff.podLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/component: {{ .service.component }}
app.kubernetes.io/part-of: handoff
{{- end -}}

{{/* The selector, the same as the kustomize manifests' so that either can take over. */}}
{{- define "handoff.selector" -}}
app.kubernetes.io/name: {{ . }}
app.kubernetes.io/part-of: handoff
{{- end -}}

{{- define "handoff.image" -}}
{{- $tag := .Values.image.tag | default .Chart.AppVersion -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ $tag }}
{{- end -}}
{{- end -}}

{{/* A service's own Secret (the argument is the service's name): no pod reads another's. */}}
{{- define "handoff.secretName" -}}
handoff-{{ . }}-secrets
{{- end -}}

{{/* The port variable and number a service serves /healthz and /readyz on. */}}
{{- define "handoff.port" -}}
{{- if eq .name "gateway" }}{{ .root.Values.gatewayPort }}{{ else }}{{ .root.Values.healthPort }}{{ end -}}
{{- end -}}

{{/* NetworkPolicy peers: every public address, without networkPolicy.privateRanges. */}}
{{- define "handoff.publicInternet" -}}
- ipBlock:
    cidr: 0.0.0.0/0
    except:
      {{- toYaml .privateRanges.ipv4 | nindent 6 }}
- ipBlock:
    cidr: ::/0
    except:
      {{- toYaml .privateRanges.ipv6 | nindent 6 }}
{{- end -}}
