package io.tcpload.operator.validation;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.tcpload.runner.format.ByteText;
import java.util.Base64;
import java.util.Map;

/**
 * A key's content as the runner pods see it once mounted: a ConfigMap's {@code data} as UTF-8, its
 * {@code binaryData} and a Secret's {@code data} as the bytes they encode, {@code stringData} as
 * written. Bytes that are not UTF-8 are kept as {@link ByteText} escapes, so that a profile in GBK
 * or Latin-1 reaches the loader byte for byte. Pure.
 */
public final class KeyContents {
    private KeyContents() {}

    /** The content of {@code key}, or null when the ConfigMap has no such key. */
    public static String of(ConfigMap map, String key) {
        String text = get(map.getData(), key);
        if (text != null) {
            return text;
        }
        String binary = get(map.getBinaryData(), key);
        return binary == null ? null : decode(binary);
    }

    /** The content of {@code key}, or null when the Secret has no such key. */
    public static String of(Secret secret, String key) {
        String text = get(secret.getStringData(), key);
        if (text != null) {
            return text;
        }
        String data = get(secret.getData(), key);
        return data == null ? null : decode(data);
    }

    /** Every key either kind of content has. */
    public static java.util.Set<String> keys(ConfigMap map) {
        java.util.Set<String> keys = new java.util.TreeSet<>();
        if (map.getData() != null) {
            keys.addAll(map.getData().keySet());
        }
        if (map.getBinaryData() != null) {
            keys.addAll(map.getBinaryData().keySet());
        }
        return keys;
    }

    private static String get(Map<String, String> map, String key) {
        return map == null ? null : map.get(key);
    }

    private static String decode(String base64) {
        try {
            return ByteText.decode(Base64.getDecoder().decode(base64.strip()));
        } catch (IllegalArgumentException e) {
            // Not base64: an API server refuses such an object; a local file may hold one.
            return null;
        }
    }
}
