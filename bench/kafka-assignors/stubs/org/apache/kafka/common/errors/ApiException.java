package org.apache.kafka.common.errors;
public class ApiException extends RuntimeException { public ApiException(String m) { super(m); } public ApiException(String m, Throwable t) { super(m, t); } public ApiException() {} }
