package io.tcpload.operator.validation;

/**
 * Why a spec is refused.
 *
 * @param field the spec field at fault, such as {@code spec.connections}
 * @param message one plain sentence
 */
public record Failure(String field, String message) {
    /** {@code spec.connections: must be at least ...}, as shown in the condition and event. */
    @Override
    public String toString() {
        return field + ": " + message;
    }
}
