/** One parameter of a tool as a form control, typed from its Parameters table, its default shown as a placeholder. */
import { useId } from 'react';
import type { ToolParam } from '../../src-main/shared/model.js';
import type { FormValue } from './tool-args.js';

interface ParamFieldProps {
  param: ToolParam;
  value: FormValue | undefined;
  onChange: (value: FormValue) => void;
  autoFocus?: boolean;
}

export function ParamField({ param, value, onChange, autoFocus = false }: ParamFieldProps) {
  const id = useId();
  const describedBy = param.description ? `${id}-desc` : undefined;
  const label = (
    <>
      <code>{param.name}</code>
      {param.required ? (
        <span className="required">
          <span aria-hidden="true">*</span>
          <span className="visually-hidden"> (required)</span>
        </span>
      ) : null}{' '}
      <span className="muted">{param.type}</span>
    </>
  );
  const description = param.description ? (
    <span id={describedBy} className="hint">
      {param.description}
    </span>
  ) : null;
  if (param.type === 'boolean') {
    return (
      <div className="field field-check">
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          autoFocus={autoFocus}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={describedBy}
        />
        <label htmlFor={id}>{label}</label>
        {description}
      </div>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {param.type === 'enum' ? (
        <select id={id} value={text} required={param.required} autoFocus={autoFocus} onChange={(e) => onChange(e.target.value)} aria-describedby={describedBy}>
          <option value="">{param.required ? 'Choose…' : param.default !== null ? `${param.default} (default)` : '(default)'}</option>
          {param.enumValues.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={param.type === 'string' ? 'text' : 'number'}
          step={param.type === 'integer' ? 1 : param.type === 'number' ? 'any' : undefined}
          inputMode={param.type === 'integer' ? 'numeric' : param.type === 'number' ? 'decimal' : undefined}
          value={text}
          placeholder={param.default ?? undefined}
          required={param.required}
          spellCheck={false}
          autoComplete="off"
          autoFocus={autoFocus}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={describedBy}
        />
      )}
      {description}
    </div>
  );
}
